"""The llm plug-in against a real judge: the tiny model behind ``transformers serve`` on loopback
(the session's server; a fault proxy in front where requests are counted). Verdicts are read from
real answers, unreadable ones are ``unparsable`` failures per hybrid, sampled repeats disagree and
uncertify, a rerun sends no request, and a server killed mid-run stops the run with one line and
is resumed without asking a cached hybrid again."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import AdjudicatorUnavailable, CertifyConfig, run_certify
from reasonbench.cli.main import main
from tests.certify.conftest import receipts
from tests.serve.servers import FaultProxy, TinyServer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples" / "certify"
LABELS = ("approve", "deny", "refer")
STEERED = {"do_sample": True, "sequence_bias": [[[t], 6.0] for t in (386, 368, 365)]}
FAST_RETRY = {"max_attempts": 2, "backoff_s": 0.01, "max_backoff_s": 0.02}


def subset(tmp_path: Path, *ids: str) -> Path:
    lines = (EXAMPLES / "expense_claims.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(x + "\n" for x in lines if json.loads(x)["id"] in ids))
    return path


def llm_config(
    cases: Path, out: Path, url: str, model: Path, steered: bool, **kw: Any
) -> CertifyConfig:
    options: dict[str, Any] = {
        "model": str(model),
        "api": "completions",
        "template_file": str(EXAMPLES / "expense_judge_prompt.txt"),
        "max_tokens": 3,
        "retry": FAST_RETRY,
        **kw.pop("options", {}),
    }
    if steered:
        options["extra_body"] = {"generation_config": json.dumps(STEERED)}
    values: dict[str, Any] = {"workers": 1, "timeout_s": 20.0, "progress": False, **kw}
    return CertifyConfig(cases, f"llm:{url}", LABELS, out, plugin_options=options, **values)


def test_unreadable_answers_are_unparsable_per_hybrid_and_greedy_repeats_agree(
    server: TinyServer, served_model: Path, tmp_path: Path
) -> None:
    cases = subset(tmp_path, "e-201", "e-202")
    config = llm_config(cases, tmp_path / "out", server.base_url, served_model, False, repeats=2)
    summary = run_certify(config)
    assert summary.failures_by_kind == {"unparsable": 4}  # 2 cases x 2 runs of their ∅
    for row in receipts(tmp_path / "out").values():
        assert (row["status"], row["reason"]) == ("uncertified", "failure")
        runs = [(f["cell"], f["run"], f["kind"]) for f in row["failures"]]
        assert runs == [("", 0, "unparsable"), ("", 1, "unparsable")]
        first, second = (f["detail"] for f in row["failures"])
        assert first == second and first.startswith("the answer")  # greedy: the same answer


def test_sampled_repeats_disagree_and_uncertify_greedy_ones_certify(
    server: TinyServer, served_model: Path, tmp_path: Path
) -> None:
    cases = subset(tmp_path, "e-201")
    sampled = llm_config(
        cases, tmp_path / "hot", server.base_url, served_model, True, repeats=2,
        options={"temperature": 1.0},
    )  # fmt: skip
    run_certify(sampled)
    row = receipts(tmp_path / "hot")["e-201"]
    assert (row["status"], row["reason"], row["receipt"]) == ("uncertified", "unstable", None)
    assert row["unstable"] and all(len(set(u["verdicts"])) > 1 for u in row["unstable"])
    assert {v for u in row["unstable"] for v in u["verdicts"]} <= set(LABELS)  # all read
    greedy = dataclasses.replace(sampled, out_dir=tmp_path / "cold", plugin_options={
        **sampled.plugin_options, "temperature": 0.0})  # fmt: skip
    run_certify(greedy)
    row = receipts(tmp_path / "cold")["e-201"]
    assert row["status"] in ("changed", "ambiguous", "stable") and row["unstable"] == []
    assert row["old"] in LABELS and row["failures"] == []


def test_a_rerun_sends_no_request(proxy: FaultProxy, served_model: Path, tmp_path: Path) -> None:
    cases = subset(tmp_path, "e-201")
    out = tmp_path / "out"
    for steered in (True, False):  # verdicts, and unparsable answers: both are on record
        config = llm_config(
            cases, out / str(steered), proxy.base_url, served_model, steered, repeats=2,
            options={"temperature": 1.0},
        )  # fmt: skip
        first = run_certify(config)
        sent = len(proxy.seen)
        assert first.run is not None and first.run.executed > 0
        before = {p.name: p.read_bytes() for p in config.out_dir.iterdir()}
        second = run_certify(config)
        assert len(proxy.seen) == sent  # no request at all
        assert second.run is not None and second.run.executed == 0
        assert {p.name: p.read_bytes() for p in config.out_dir.iterdir()} == before


def test_a_killed_server_stops_the_run_with_one_line_and_a_rerun_resumes(
    server: TinyServer, served_model: Path, tmp_path: Path
) -> None:
    cases = subset(tmp_path, "e-201", "e-203")
    out = tmp_path / "out"
    config = llm_config(
        cases, out, server.base_url, served_model, True, repeats=3, options={"temperature": 1.0}
    )
    stopped: list[BaseException] = []

    def certify() -> None:
        try:
            run_certify(config)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            stopped.append(exc)

    worker = threading.Thread(target=certify)
    worker.start()
    deadline = time.monotonic() + 60
    cache = out / "cache.jsonl"
    while not cache.exists() or cache.read_text().count("\n") < 4:  # marker + 3 executions
        assert worker.is_alive() and time.monotonic() < deadline
        time.sleep(0.01)
    server.kill()
    worker.join(60)
    assert len(stopped) == 1 and isinstance(stopped[0], AdjudicatorUnavailable)
    message = str(stopped[0])
    assert message.startswith("the llm judge stopped: a request to ") and "\n" not in message
    assert message.endswith(f"kept in {cache} (a rerun resumes)")
    kept = cache.read_text().count("\n") - 1
    assert 3 <= kept < 12 and not (out / "receipts.jsonl").exists()
    server.start()
    resumed = run_certify(config)
    assert resumed.run is not None and resumed.run.cached_before == kept
    lines = cache.read_text().splitlines()[1:]
    keys = [json.loads(line)["key"] for line in lines]
    assert len(keys) == len(set(keys)) == kept + resumed.run.executed  # nothing asked twice
    assert {r["status"] for r in receipts(out).values()} == {"uncertified"}


def test_the_cli_takes_plugin_options_and_says_one_line(
    server: TinyServer, served_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = subset(tmp_path, "e-201")
    common = [
        "certify", f"cases={cases}", f"adjudicator=llm:{server.base_url}",
        "labels=[approve,deny,refer]", f"out_dir={tmp_path / 'out'}", "progress=false",
        f"plugin_options.model={served_model}", "plugin_options.api=completions",
        "plugin_options.max_tokens=2", "plugin_options.retry.max_attempts=2",
    ]  # fmt: skip
    prompt = EXAMPLES / "expense_judge_prompt.txt"
    assert main([*common, f"plugin_options.template_file={prompt}"]) == 0
    assert capsys.readouterr().out.startswith("certified 1 case(s): 0 changed")
    assert main([*common, 'plugin_options.template="{case} {rubric}"']) == 2
    err = capsys.readouterr().err
    assert err == (
        "reasonbench certify: error: plugin_options.template: source 'instructions' has no "
        "{instructions} slot (the judge would never see it, so it could not change a verdict)\n"
    )
