"""``reasonbench evaluate`` end to end on the real small benchmark: a baseline judge and the
tiny local model write prediction records that ``analyze`` reads like any method's; reruns come
from the cache byte for byte; foreign prediction files are never overwritten."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.evaluate import EvaluateSettings, evaluate
from reasonbench.judges.answering import Output
from reasonbench.predictions import load_predictions, read_predictions
from reasonbench.targets.trim import trim_answer

SPLITS = "splits=[test_locked,controls_locked]"


def evaluate_argv(bench: Path, preds: Path, *extra: str) -> list[str]:
    return ["evaluate", f"data_dir={bench}", f"predictions_dir={preds}", "progress=false", *extra]


def test_baseline_judge_records_feed_analyze(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "predictions"
    argv = evaluate_argv(small_bench, preds, "judge=majority", "judge.name=maj", SPLITS)
    assert main(argv) == 0
    out = preds / "maj"
    records = read_predictions(out / "seed0.jsonl")
    assert {r.split for r in records} == {"test_locked", "controls_locked"}
    assert all(r.method == "maj" and r.seed == 0 for r in records)
    summary = json.loads((out / "evaluate.json").read_text())
    assert summary["records_per_run"] == {"controls_locked": 240, "test_locked": 80}
    # the baseline judge is fitted on organizational rows: its policy verdicts parse there only
    assert summary["parse_ok"] == {"controls_locked": 120, "test_locked": 40}
    assert summary["lenient_parse_ok"] == summary["parse_ok"]
    assert "maj: 320 records x 1 run(s)" in capsys.readouterr().out
    before = (out / "seed0.jsonl").read_bytes()
    assert main(argv) == 0 and (out / "seed0.jsonl").read_bytes() == before  # deterministic
    metrics = tmp_path / "metrics.json"
    analyze = ["analyze", f"data_dir={small_bench}", f"predictions_dir={preds}", f"out={metrics}",
               "replicates=50", "comparisons=[]"]  # fmt: skip
    assert main(analyze) == 0
    seeds = json.loads(metrics.read_text())["methods"]["maj"]["seeds"]["0"]
    assert set(seeds["splits"]) == {"test_locked", "controls_locked"} and "consistency" in seeds


def test_tiny_local_judge_is_batched_cached_and_rerun_identically(
    small_bench: Path, tiny_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds, cache = tmp_path / "predictions", tmp_path / "answers"
    argv = evaluate_argv(
        small_bench, preds, "judge=tiny", f"judge.args.cache_dir={tiny_cache}",
        "judge.args.decoding.max_new_tokens=4", "splits=[shift_depth,cardinality_nope]",
        f"cache_dir={cache}", "runs=2", "progress=true",
    )  # fmt: skip
    assert main(argv) == 0
    progress = capsys.readouterr().err  # off a terminal: plain lines with rate and ETA
    assert "evaluate tiny: 30/60 answers (50%)" in progress and "answers/s, ETA" in progress
    out = preds / "tiny"
    files = sorted(out.glob("seed*.jsonl"))
    assert [f.name for f in files] == ["seed0.jsonl", "seed1.jsonl"]
    first = [f.read_bytes() for f in files]
    records = read_predictions(files[0])
    assert len(records) == 30 and not any(r.parse_ok for r in records)  # gibberish, kept raw
    assert all(r.raw_output for r in records)
    summary = json.loads((out / "evaluate.json").read_text())
    assert summary["skipped_splits"] == ["cardinality_nope"] and summary["seeds"] == [0, 1]
    (entries,) = list(cache.glob("*/rank-0.jsonl"))
    assert len(entries.read_text().splitlines()) == 60  # 30 prompts x 2 seeds, one line each
    assert main(argv) == 0  # from the cache: nothing decoded, identical bytes
    assert [f.read_bytes() for f in files] == first
    assert len(entries.read_text().splitlines()) == 60
    gold_ids = {"shift_depth": [r.example_id for r in records]}
    assert len(load_predictions(out, gold_ids)) == 60


def test_foreign_predictions_are_never_overwritten(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "predictions"
    foreign = preds / "maj"
    foreign.mkdir(parents=True)
    (foreign / "seed0.jsonl").write_text("keep me\n")
    argv = evaluate_argv(small_bench, preds, "judge=majority", "judge.name=maj", "splits=[dev]")
    assert main(argv) == 2
    assert (foreign / "seed0.jsonl").read_text() == "keep me\n"
    err = capsys.readouterr().err.strip()
    assert err.startswith("reasonbench evaluate: error: ") and "not written by reasonbench" in err
    assert len(err.splitlines()) == 1
    assert (
        main(evaluate_argv(small_bench, preds, "judge=majority", "judge.name=m2", "splits=[dev]"))
        == 0
    )
    record = (preds / "m2" / "seed0.jsonl").read_text().splitlines()[0]
    (preds / "other.jsonl").write_text(record + "\n")  # another file already holds method m2
    assert (
        main(evaluate_argv(small_bench, preds, "judge=majority", "judge.name=m2", "splits=[dev]"))
        == 2
    )
    assert "already has predictions in" in capsys.readouterr().err
    overwrite = ["judge=majority", "judge.name=maj", "splits=[dev]", "overwrite=true"]
    assert main(evaluate_argv(small_bench, preds, *overwrite)) == 0  # the user's explicit choice
    assert len(read_predictions(foreign / "seed0.jsonl")) == 50


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        # the judge= option the user typed, not the judge's display name
        (["judge=openai", "judge.name=qwen"], "set judge.args.base_url (e.g. "
         "judge.args.base_url=...) for judge=openai"),
        (["judge=majority", "splits=[nope]"], "split 'nope' not found"),
        (["judge=majority", "runs=0"], "runs must be >= 1, got 0"),
    ],
)  # fmt: skip
def test_bad_configs_get_one_line(
    small_bench: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    assert main(evaluate_argv(small_bench, tmp_path / "preds", *extra)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"reasonbench evaluate: error: {message}")
    assert not (tmp_path / "preds").exists()  # refused before anything was asked or made


class Preamble:
    """A judge that answers ``direct_verdict`` after a line of preamble (even prompts), or
    answers at once and then restates a verdict outside the labels (odd prompts)."""

    name, target, sampling = "preamble", "direct_verdict", False

    def answers(self, prompts: Sequence[str], seed: int = 0) -> list[Output]:
        said = [
            "Here is my answer.\nverdict: refer"
            if i % 2 == 0
            else "verdict: refer\nOn reflection, verdict: maybe"
            for i, _ in enumerate(prompts)
        ]
        return [Output(trim_answer(raw, self.target), raw) for raw in said]

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [a.text for a in self.answers(prompts, seed)]


def test_the_lenient_reading_sees_the_whole_answer(small_bench: Path, tmp_path: Path) -> None:
    settings = EvaluateSettings(
        data_dir=small_bench,
        splits=("shift_depth",),
        out_dir=tmp_path / "preds" / "preamble",
        predictions_dir=tmp_path / "preds",
        progress=False,
    )
    summary = evaluate(Preamble(), settings)
    records = read_predictions(settings.out_dir / "seed0.jsonl")
    # "refer" is a label of every stratum: the strict parser accepts what it reads, the first
    # line, on odd prompts only; the lenient reading accepts the preamble answers from the whole
    # output, and counts every answer the strict parser accepted
    assert (
        summary["parse_ok"]
        == {"shift_depth": 15}
        == {"shift_depth": sum(r.parse_ok for r in records)}
    )
    assert summary["lenient_parse_ok"] == {"shift_depth": 30}
    assert all(r.raw_output.startswith(("Here is", "verdict: refer\nOn")) for r in records)
