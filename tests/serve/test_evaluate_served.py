"""``reasonbench evaluate`` and ``judge-card`` with ``judge=openai`` on the real tiny server:
records, usage and cost beside them, a rerun that sends nothing, and the Judge Card answered
through the same path. These runs are the worked example of docs/evaluate.md: every line it
shows as checked is what they print (the docs' paths for the test's own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.io import read_manifest
from reasonbench.judge_card import JudgeCard
from reasonbench.models.tiny import build_tiny
from reasonbench.predictions import read_predictions
from tests.serve.servers import FaultProxy, TinyServer

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "evaluate.md").read_text(encoding="utf-8")


def as_in_docs(text: str, names: dict[Path, str]) -> list[str]:
    """The lines of ``text`` with the test's paths written as the worked example names them."""
    for path, name in names.items():
        text = text.replace(str(path), name)
    return text.splitlines()


def not_in_docs(lines: list[str]) -> list[str]:
    return [line for line in lines if line not in DOC]


def test_the_worked_examples_inputs_are_the_tests(small_bench: Path, tiny_cache: Path,
                                                   served_model: Path) -> None:  # fmt: skip
    stats = read_manifest(small_bench, required=True)["stats"]  # what generate printed
    assert (
        f"wrote {stats['main_cases']:,} main cases and {stats['controls']:,} controls to rb\n"
        in DOC
    )
    assert f"\ntiny/{build_tiny(small_bench, tiny_cache).name}\n" in DOC


def served(server: TinyServer | FaultProxy, model: Path, cache: Path) -> list[str]:
    return [
        "judge=openai", "judge.name=tiny-served", f"judge.args.base_url={server.base_url}",
        f"judge.args.model={model}", f"judge.args.cache_dir={cache}", "judge.args.concurrency=4",
        "judge.args.decoding.max_new_tokens=4", "judge.args.api=completions",
        "judge.args.prices.input_per_1m=2.0", "judge.args.prices.output_per_1m=8.0",
    ]  # fmt: skip


def test_evaluate_served_judge_then_rerun_from_cache(
    server: TinyServer, served_model: Path, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    preds = tmp_path / "predictions"
    argv = ["evaluate", f"data_dir={small_bench}", f"predictions_dir={preds}", "progress=false",
            "splits=[shift_depth]", *served(server, served_model, tmp_path / "served")]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    out = preds / "tiny-served"
    assert not not_in_docs(as_in_docs(printed, {preds: "preds"}))
    first = (out / "seed0.jsonl").read_text(encoding="utf-8").splitlines()[0]
    assert f"\n{first}\n" in DOC
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
    monkeypatch.delenv("REASONBENCH_PROGRESS", raising=False)  # off a terminal: plain lines
    assert main([*argv, "progress=true"]) == 0  # everything cached: no request sent
    printed = capsys.readouterr()
    assert "0 fetched, 30 cached" in printed.out
    assert printed.err == "evaluate tiny-served: 30 answers, all from the cache\n"  # one line
    assert not not_in_docs(as_in_docs(printed.err + printed.out, {preds: "preds"}))
    again = json.loads((out / "usage.json").read_text())
    assert again["requests"] == 0 and again["cost"] == 0 and again["cost_all"] == usage["cost"]
    assert (out / "seed0.jsonl").read_bytes() == before
    # the worked example goes on: analyze, then the tables with the judge in a role
    metrics, tables = tmp_path / "metrics.json", tmp_path / "tables"
    assert (
        main(
            [
                "analyze",
                f"data_dir={small_bench}",
                f"predictions_dir={preds}",
                f"out={metrics}",
                "comparisons=[]",
                "replicates=200",
                "progress=false",
            ]
        )
        == 0
    )
    assert main(["tables", f"data_dir={small_bench}", f"metrics={metrics}", f"out_dir={tables}",
                 "methods.direct_receipt.method=tiny-served"]) == 0  # fmt: skip
    printed = capsys.readouterr()
    assert not not_in_docs(as_in_docs(printed.out, {metrics: "metrics.json", tables: "tables"}))
    shift = (tables / "tables" / "shift.md").read_text(encoding="utf-8").splitlines()
    assert not not_in_docs([shift[2], shift[3], next(r for r in shift if "tiny-served" in r)])


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
    assert not not_in_docs(as_in_docs(printed, {out: "card"}))
    begins = (out / "judge_card.md").read_text(encoding="utf-8").split("\n\n")[:3]
    assert "\n\n".join(begins) in DOC


FAST = ["judge.args.retry.backoff_s=0.01", "judge.args.retry.max_backoff_s=0.05",
        "judge.args.retry.max_consecutive_failures=3"]  # fmt: skip


def test_a_model_without_chat_template_stops_with_the_fix(
    templateless_server: TinyServer, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    preds = tmp_path / "predictions"
    argv = ["evaluate", f"data_dir={small_bench}", f"predictions_dir={preds}", "progress=false",
            "splits=[shift_depth]", "judge=openai", "judge.name=no-template",
            f"judge.args.base_url={templateless_server.base_url}",
            f"judge.args.model={templateless_server.model}",
            f"judge.args.cache_dir={tmp_path / 'served'}", *FAST]  # fmt: skip
    assert main(argv) == 1  # api=chat, the default: the server answers HTTP 500
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("reasonbench evaluate: error: ")
    assert (
        "HTTP 500" in err
        and "if the model has no chat template, set judge.args.api=completions" in err
    )
    assert not preds.exists()  # no empty output folder left behind


def test_a_key_quoted_back_is_in_no_file_and_no_line(
    proxy: FaultProxy, served_model: Path, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    secret = "sk-Q7vZ3xW9kP2mR8tYc4"
    monkeypatch.setenv("RB_TEST_API_KEY", secret)
    proxy.echo_key = True  # every answer ends with the key it was asked with
    preds = tmp_path / "predictions"
    argv = ["evaluate", f"data_dir={small_bench}", f"predictions_dir={preds}", "progress=true",
            "splits=[shift_depth]", *served(proxy, served_model, tmp_path / "served"),
            "judge.args.api_key_env=RB_TEST_API_KEY"]  # fmt: skip
    assert main(argv) == 0
    assert all(h.get("Authorization") == f"Bearer {secret}" for _, _, h in proxy.seen)
    records = read_predictions(preds / "tiny-served" / "seed0.jsonl")
    assert len(records) == 30 and all(r.raw_output.endswith(" ***") for r in records)
    printed = capsys.readouterr()
    shown = [printed.out, printed.err] + [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    assert not any(secret[i : i + 5] in text for text in shown for i in range(len(secret) - 4))
