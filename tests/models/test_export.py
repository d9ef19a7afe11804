"""``reasonbench export-model`` (issue 43 §1): a trained run becomes a Hugging Face model
directory that ``transformers`` loads offline by its path alone, and that decodes the bytes
``reasonbench predict`` decodes, through the tokenizer's chat template (a pass-through: the
prompt given is the trained input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.models.export import EXPORT_FILE
from reasonbench.models.prompting import model_input
from reasonbench.predictions.io import read_predictions
from tests.train.helpers import tiny_overrides

N = 12  # prompts decoded both ways (predict decodes the small build's shift_operator split: 40)


@pytest.fixture(scope="module")
def full_run(small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of ``model.tuning=full`` (one step): saved whole, no adapter."""
    from reasonbench.train import train
    from tests.train.helpers import composed

    run_dir = tmp_path_factory.mktemp("full-run") / "tiny-cube-full"
    extra = ["model.tuning=full", "optim.max_steps=1", "optim.batch_size=8", f"out_dir={run_dir}"]
    assert train(composed("train", tiny_overrides(small_bench, tiny_cache, *extra)))["finished"]
    return run_dir


@pytest.mark.parametrize("tuning", ["lora", "full"])
def test_an_exported_run_decodes_what_predict_decodes(
    tuning: str, small_bench: Path, tiny_cache: Path, request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:  # fmt: skip
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from reasonbench.io import read_split

    run = request.getfixturevalue("tiny_cube_run" if tuning == "lora" else "full_run")
    out = tmp_path / "exported"
    assert main(["export-model", f"run={run}", f"out_dir={out}"]) == 0
    record = json.loads((out / EXPORT_FILE).read_text())
    assert record["tuning"] == tuning and record["target"] == "cube"
    preds = tmp_path / "preds.jsonl"
    extra = [f"run_dir={run}", f"out={preds}", f"cache_dir={tmp_path / 'cache'}",
             "splits=[shift_operator]", "batch_size=8", f"model.tuning={tuning}"]  # fmt: skip
    assert main(["predict", *tiny_overrides(small_bench, tiny_cache, *extra)]) == 0
    rows = read_split(small_bench, "shift_operator", ["id", "prompt"])
    prompts = {r["id"]: r["prompt"] for r in rows}
    records = read_predictions(preds)[:N]
    tokenizer = AutoTokenizer.from_pretrained(out, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True).eval()
    torch.set_num_threads(1)
    for rec in records:
        trained_input = model_input(prompts[rec.example_id])
        messages = [{"role": "user", "content": trained_input}]
        text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        assert text == trained_input  # the template passes the prompt through
        ids = tokenizer(text, return_tensors="pt", add_special_tokens=False)
        with torch.no_grad():
            generated = model.generate(**ids)  # its generation config: greedy, the budget
        said = tokenizer.decode(generated[0, ids["input_ids"].shape[1] :], skip_special_tokens=True)
        assert said == rec.raw_output, rec.example_id


def test_export_refusals_are_one_line(
    tiny_cube_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export-model", f"run={tmp_path}", f"out_dir={tmp_path / 'x'}"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"reasonbench export-model: error: no finished training run at {tmp_path} "
        f"({tmp_path / 'RUN.json'} missing)\n"
    )
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("a user's file")
    assert main(["export-model", f"run={tiny_cube_run}", f"out_dir={mine}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not an exported model; it is left untouched" in err, err
    assert (mine / "notes.txt").read_text() == "a user's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # no staging left behind
