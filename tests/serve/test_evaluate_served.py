"""``reasonbench evaluate`` and ``judge-card`` with ``judge=openai`` on the real tiny server:
records, usage and cost beside them, a rerun that sends nothing, and the Judge Card answered
through the same path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.predictions import read_predictions
from reasonbench.reports.judge_card import JudgeCard
from tests.serve.servers import TinyServer


def served(server: TinyServer, model: Path, cache: Path) -> list[str]:
    return [
        "judge=openai", "judge.name=tiny-served", f"judge.args.base_url={server.base_url}",
        f"judge.args.model={model}", f"judge.args.cache_dir={cache}", "judge.args.concurrency=4",
        "judge.args.decoding.max_new_tokens=4", "judge.args.api=completions",
        "judge.args.prices.input_per_1m=2.0", "judge.args.prices.output_per_1m=8.0",
    ]  # fmt: skip


def test_evaluate_served_judge_then_rerun_from_cache(
    server: TinyServer, served_model: Path, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    preds = tmp_path / "predictions"
    argv = ["evaluate", f"data_dir={small_bench}", f"predictions_dir={preds}", "progress=false",
            "splits=[shift_depth]", *served(server, served_model, tmp_path / "served")]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    out = preds / "tiny-served"
    records = read_predictions(out / "seed0.jsonl")
    assert len(records) == 30 and {r.method for r in records} == {"tiny-served"}
    usage = json.loads((out / "usage.json").read_text())
    assert usage["answers_fetched"] == 30 and usage["answers_cached"] == 0
    tokens = usage["tokens"]
    cost = (tokens["prompt_tokens"] * 2.0 + tokens["completion_tokens"] * 8.0) / 1e6
    assert tokens["prompt_tokens"] > 0 and usage["cost"] == pytest.approx(cost, abs=1e-6)
    assert "30 fetched, 0 cached" in printed and "cost" in printed
    summary = json.loads((out / "evaluate.json").read_text())
    endpoint = summary["judge_description"]["endpoint"]
    assert endpoint["base_url"] == server.base_url and endpoint["api"] == "completions"
    before = (out / "seed0.jsonl").read_bytes()
    assert main(argv) == 0  # everything cached: no request sent
    assert "0 fetched, 30 cached" in capsys.readouterr().out
    again = json.loads((out / "usage.json").read_text())
    assert again["requests"] == 0 and again["cost"] == 0 and again["cost_all"] == usage["cost"]
    assert (out / "seed0.jsonl").read_bytes() == before


def test_judge_card_of_a_served_judge(
    server: TinyServer, served_model: Path, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = tmp_path / "card"
    argv = ["judge-card", f"data_dir={small_bench}", f"out_dir={out}", "max_items=1",
            "controls=false", "replicates=50", *served(server, served_model, tmp_path / "served")]  # fmt: skip
    assert main(argv) == 0
    card = JudgeCard.from_json(json.loads((out / "judge_card.json").read_text()))
    assert card.judge["factory"] == "openai" and card.runs["greedy_jitter_verified"] is True
    printed = capsys.readouterr().out
    fetched = card.runs["distinct_prompts"] + card.data["items"]  # + the second base run
    assert f"{fetched} fetched, 0 cached" in printed
