"""End to end on the small benchmark with the tiny model: train a few steps -> predict ->
analyze; resume after an interruption; a second predict recomputes nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch
from safetensors.torch import load_file

from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.gold import load_gold, split_ids
from reasonbench.infer import predict
from reasonbench.infer.curve import plan_curve
from reasonbench.predictions import load_predictions, read_predictions
from reasonbench.train import RunConflict, train
from tests.train.helpers import composed, tiny_overrides

STEPS = ["optim.max_steps=6", "optim.batch_size=8", "save_every=2", "log_every=1"]
SPLITS = "splits=[calibration,test_locked,controls_locked,cardinality_test]"


def lora_weights(run_dir: Path) -> dict[str, torch.Tensor]:
    return load_file(str(run_dir / "adapter" / "adapter_model.safetensors"))


@pytest.fixture(scope="module")
def trained(small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny run (built from scratch: tokenizer, model, 6 steps)."""
    run_dir = tmp_path_factory.mktemp("run") / "tiny-cube"
    summary = train(
        composed("train", tiny_overrides(small_bench, tiny_cache, f"out_dir={run_dir}", *STEPS))
    )
    assert summary["finished"] and summary["steps"] == 6
    return run_dir


def predict_cfg(bench: Path, cache: Path, run_dir: Path, tmp: Path, *extra: str) -> Any:
    return composed(
        "predict",
        tiny_overrides(
            bench, cache, f"run_dir={run_dir}", f"predictions_dir={tmp / 'preds'}",
            f"cache_dir={tmp / 'cache'}", SPLITS, "max_new_tokens=24", *extra,
        ),
    )  # fmt: skip


def test_train_predict_analyze(
    small_bench: Path, tiny_cache: Path, trained: Path, tmp_path: Path
) -> None:
    run = json.loads((trained / "RUN.json").read_text())
    for name in ("config.yaml", "data_manifest.json", "adapter/adapter_config.json", "tokenizer"):
        assert (trained / name).exists(), name
    manifest = json.loads((trained / "data_manifest.json").read_text())
    assert manifest["sha256"] == run["data_manifest_sha256"] and manifest["examples"] == 200
    # LoRA's B matrices start at zero: non-zero B means the optimizer changed the adapter
    weights = lora_weights(trained)
    b_norms = [float(w.abs().sum()) for name, w in weights.items() if "lora_B" in name]
    assert b_norms and all(n > 0 for n in b_norms)

    report = predict(predict_cfg(small_bench, tiny_cache, trained, tmp_path))
    out = Path(report["out"])
    assert out.name == "seed0.jsonl" and out.parent.name == "tiny-cube"
    gold = load_gold(small_bench)
    records = load_predictions(out.parent, split_ids(gold))  # validates every record
    expected = sum(1 for g in gold.values() if g.split in SPLITS)
    assert len(records) == report["records"] == expected
    assert {r.confidence_source for r in records} == {"seq_prob"}
    assert all(r.method == "tiny-cube" and r.seed == 0 for r in records)
    metrics = analyze(small_bench, out.parent, replicates=100)
    scored = metrics["methods"]["tiny-cube"]["seeds"]["0"]["splits"]
    assert set(scored) == {"calibration", "test_locked", "controls_locked", "cardinality_test"}
    meta = json.loads(out.with_name("seed0.meta.json").read_text())
    assert meta["batch_size"] == 32 and meta["adapter_sha256"] == run["adapter_sha256"]


def test_second_predict_recomputes_nothing(
    small_bench: Path,
    tiny_cache: Path,
    trained: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cfg = predict_cfg(small_bench, tiny_cache, trained, tmp_path, "splits=[test_locked]")
    first = predict(cfg)
    out = Path(first["out"])
    before = out.read_bytes()
    assert first["computed"] == first["records"] == 80

    def no_model(*args: object) -> None:
        raise AssertionError("the model was loaded although every generation is cached")

    monkeypatch.setattr("reasonbench.infer.run.load_predictor", no_model)
    second = predict(cfg)
    assert (second["computed"], second["cached"]) == (0, 80)
    assert out.read_bytes() == before
    # another attention kernel may round differently: nothing of the cache is reused
    other = predict_cfg(
        small_bench, tiny_cache, trained, tmp_path, "splits=[test_locked]",
        "model.attn_implementation=eager",
    )  # fmt: skip
    with pytest.raises(AssertionError, match="the model was loaded"):
        predict(other)


def test_interrupted_predict_resumes(
    small_bench: Path, tiny_cache: Path, trained: Path, tmp_path: Path
) -> None:
    cfg = predict_cfg(small_bench, tiny_cache, trained, tmp_path, "splits=[test_locked]")
    first = predict(cfg)
    reference = tmp_path / "reference.jsonl"
    reference.write_bytes(Path(first["out"]).read_bytes())
    (cache_file,) = (tmp_path / "cache").rglob("rank-0.jsonl")
    lines = cache_file.read_text().splitlines(keepends=True)
    # as a kill leaves it: 30 complete lines, then half of the next one
    cache_file.write_text("".join(lines[:30]) + lines[30][:50])
    Path(first["out"]).unlink()
    resumed = predict(cfg)
    assert (resumed["computed"], resumed["cached"]) == (50, 30)
    again = read_predictions(Path(resumed["out"]))
    before = read_predictions(reference)
    # the same greedy tokens; confidences agree up to the rounding of another batch composition
    assert [r.raw_output for r in again] == [r.raw_output for r in before]
    assert [r.example_id for r in again] == [r.example_id for r in before]
    for a, b in zip(again, before, strict=True):
        assert a.confidence == pytest.approx(b.confidence, rel=1e-4, abs=1e-12)


def test_resume_continues_from_the_checkpoint(
    small_bench: Path, tiny_cache: Path, trained: Path, tmp_path: Path
) -> None:
    run_dir = tmp_path / "resumed"
    overrides = tiny_overrides(small_bench, tiny_cache, f"out_dir={run_dir}", *STEPS)
    # killed after 3 steps: the last checkpoint is step 2, step 3 is lost
    stopped = train(composed("train", [*overrides, "stop_after_steps=3"]))
    assert not stopped["finished"] and stopped["steps"] == 3
    assert not (run_dir / "RUN.json").exists()
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == ["step-00000002"]
    resumed = train(composed("train", overrides))  # the same command again
    assert resumed["resumed_from"] == 2 and resumed["finished"] and resumed["steps"] == 6
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").read_text().splitlines()]
    assert [e["step"] for e in log] == [1, 2, 3, 3, 4, 5, 6]  # step 3 was lost and redone
    # counters are the whole run's, not the last invocation's (issue 13)
    full = json.loads((trained / "RUN.json").read_text())
    done = json.loads((run_dir / "RUN.json").read_text())
    assert (done["tokens"], done["padded_tokens"]) == (full["tokens"], full["padded_tokens"])
    assert done["this_invocation"]["steps"] == 4 < done["steps"]
    assert done["this_invocation"]["tokens"] < done["tokens"]
    assert done["seconds"] > done["this_invocation"]["seconds"]
    assert done["tokens_per_s"] == pytest.approx(done["tokens"] / done["seconds"], rel=1e-3)
    assert log[2]["tokens"] == log[3]["tokens"]  # the lost step 3, counted once when redone
    assert [e["tokens"] for e in log] == sorted(e["tokens"] for e in log)
    assert log[-1]["tokens"] == done["tokens"]
    # the resumed run computes what the uninterrupted one did (same batches, RNG, optimizer)
    uninterrupted, again = lora_weights(trained), lora_weights(run_dir)
    assert uninterrupted.keys() == again.keys()
    for name, value in uninterrupted.items():
        torch.testing.assert_close(again[name], value, rtol=1e-5, atol=1e-6)
    assert train(composed("train", overrides))["skipped"]  # finished: nothing to do
    with pytest.raises(RunConflict, match="optim"):
        train(composed("train", [*overrides, "optim.lr=1e-3"]))


def test_cli_errors_are_one_line(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reasonbench.cli.main import main

    code = main(
        ["train", "model.hf_id=reasonbench-test/absent-model", f"data_dir={small_bench}",
         f"out_dir={tmp_path / 'run'}", "progress=false"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "hf download reasonbench-test/absent-model" in err
    code = main(["predict", f"data_dir={small_bench}", f"run_dir={tmp_path / 'none'}"])
    assert code == 2 and "no finished training run" in capsys.readouterr().err


def test_killed_train_resumes(small_bench: Path, tiny_cache: Path, tmp_path: Path) -> None:
    """A real SIGKILL in the middle of training; the same command continues from the last
    checkpoint instead of step 0."""
    run_dir = tmp_path / "killed"
    overrides = tiny_overrides(
        small_bench, tiny_cache, f"out_dir={run_dir}",
        "optim.max_steps=40", "optim.batch_size=4", "save_every=4",
    )  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reasonbench.cli.main", "train", *overrides],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if (run_dir / "checkpoints" / "step-00000004").is_dir():
                break
            time.sleep(0.05)
        assert proc.poll() is None, "training ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert not (run_dir / "RUN.json").exists()
    resumed = train(composed("train", overrides))
    assert resumed["finished"] and resumed["steps"] == 40
    assert resumed["resumed_from"] >= 4
    # RUN.json and the log count every token of the 40 steps once, over both invocations
    tokens = sum(planned_lengths(small_bench, resumed["backbone"]["path"], steps=40, batch=4))
    run = json.loads((run_dir / "RUN.json").read_text())
    assert run["tokens"] == tokens == resumed["tokens"]
    assert run["this_invocation"]["tokens"] < tokens
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").read_text().splitlines()]
    by_step: dict[int, set[int]] = {}
    for entry in log:
        by_step.setdefault(entry["step"], set()).add(entry["tokens"])
    assert all(len(counts) == 1 for counts in by_step.values())  # redone steps: same count
    assert by_step[40] == {tokens}


def planned_lengths(bench: Path, tiny: str, steps: int, batch: int) -> list[int]:
    """The token count of every example of steps 0..steps-1, from the step plan (seed 0)."""
    from reasonbench.models import encode_prompt, encode_target, join
    from reasonbench.models.backbone import backbone_at, load_tokenizer
    from reasonbench.train.data import training_examples
    from reasonbench.train.steps import step_examples

    tokenizer = load_tokenizer(backbone_at(tiny))
    examples = training_examples(bench, "cube", {"train_split": "train"}, 0)
    lengths = [
        join(encode_prompt(tokenizer, e.prompt), encode_target(tokenizer, e.target), 2048).length
        for e in examples
    ]
    return [lengths[i] for s in range(steps) for i in step_examples(s, len(examples), batch, 0)]


def test_a_learning_curve_changes_no_weight(
    trained: Path, small_bench: Path, tiny_cache: Path, tmp_path: Path
) -> None:
    """The same run with a learning curve (eval.every): the same adapter bytes, and one point
    per eval.every steps in train_log.jsonl, scored like analyze (rates in [0, 1])."""
    run_dir = tmp_path / "curve"
    overrides = [f"out_dir={run_dir}", *STEPS, "eval.every=3", "eval.examples=8"]
    train(composed("train", tiny_overrides(small_bench, tiny_cache, *overrides)), plan_curve)
    assert (run_dir / "adapter" / "adapter_model.safetensors").read_bytes() == (
        trained / "adapter" / "adapter_model.safetensors"
    ).read_bytes()
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").read_text().splitlines()]
    points = [entry for entry in log if "eval" in entry]
    assert [p["step"] for p in points] == [3, 6]
    for point in points:
        measured = point["eval"]
        assert measured["split"] == "dev" and measured["examples"] == 8
        for key in ("revised_verdict", "exact_receipt", "endpoints", "parse_failures"):
            assert 0.0 <= measured[key] <= 1.0
    # the curve's decoding counts no training token
    summary = json.loads((run_dir / "RUN.json").read_text())
    assert summary["tokens"] == json.loads((trained / "RUN.json").read_text())["tokens"]


def test_a_curve_without_its_probe_is_refused(
    small_bench: Path, tiny_cache: Path, tmp_path: Path
) -> None:
    """Training never imports inference: asked for a curve with no probe to measure it, train
    refuses in one line, before it writes anything."""
    run_dir = tmp_path / "no-probe"
    overrides = [f"out_dir={run_dir}", *STEPS, "eval.every=3"]
    with pytest.raises(ValueError, match=r"eval.every > 0 needs a learning-curve probe"):
        train(composed("train", tiny_overrides(small_bench, tiny_cache, *overrides)))
    assert not run_dir.exists()
