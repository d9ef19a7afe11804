"""``run_certify`` end to end: receipts equal exhaustive execution, the cache (a rerun executes
nothing, a killed run resumes), failures counted per hybrid, r-repeat instability, budgets,
assumption violations, and outputs that are never written over someone else's file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reasonbench.certify import (
    CertifyError,
    ConfigError,
    OutputError,
    run_certify,
)
from tests.certify.conftest import EXPECTED, case, config, receipts, write_cases

GRADE = "python:tests.certify.adjudicators:grade"
ROOT = Path(__file__).resolve().parents[2]
DISTINCT_HYBRIDS = 10  # the six cases share hybrids; the cache executes each once


def statuses(out: Path) -> dict[str, tuple[str, list[list[str]]]]:
    return {i: (r["status"], r["receipt"] or []) for i, r in receipts(out).items()}


@pytest.mark.parametrize("execution", ["exhaustive", "adaptive", "monotone"])
def test_receipts_match_the_expected_cubes(
    execution: str, cases_file: Path, tmp_path: Path
) -> None:
    summary = run_certify(config(cases_file, tmp_path / "out", GRADE, execution=execution))
    assert statuses(tmp_path / "out") == EXPECTED
    assert summary.counts == {"changed": 4, "ambiguous": 1, "stable": 1, "uncertified": 0}
    spent = sum(r["queries"] for r in receipts(tmp_path / "out").values())
    assert summary.queries["spent"] == spent and summary.queries["interior_cells"] == 36
    if execution == "exhaustive":
        assert spent == 36
    for name in ("receipts.jsonl", "summary.json", "summary.md", "summary.html"):
        assert (tmp_path / "out" / name).is_file()
    markdown = (tmp_path / "out" / "summary.md").read_text()
    assert "| {score} or {rubric} | 1 |" in markdown and "Every case was certified." in markdown


def test_rerun_executes_nothing_and_writes_the_same_bytes(cases_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run_certify(config(cases_file, out, GRADE, execution="exhaustive", workers=3))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    second = run_certify(config(cases_file, out, GRADE, execution="exhaustive", workers=1))
    assert first.run is not None and first.run.executed == DISTINCT_HYBRIDS
    assert second.run is not None and second.run.executed == 0
    assert second.run.cached_before == DISTINCT_HYBRIDS
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # another adjudicator version is another cache key: everything executes again
    third = run_certify(
        config(cases_file, out, GRADE, execution="exhaustive", adjudicator_version="2")
    )
    assert third.run is not None and third.run.executed == DISTINCT_HYBRIDS


def cache_entries(path: Path) -> int:
    if not path.exists():
        return 0
    return max(0, path.read_text(encoding="utf-8").count("\n") - 1)  # minus the header line


def test_a_killed_run_resumes_without_re_executing(
    cases_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, log = tmp_path / "out", tmp_path / "executions.log"
    script = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from pathlib import Path\n"
        "from reasonbench.certify import run_certify\n"
        "from tests.certify.conftest import config\n"
        f"run_certify(config(Path({str(cases_file)!r}), Path({str(out)!r}), "
        "'python:tests.certify.adjudicators:logged_grade', execution='exhaustive', workers=1))\n"
    )
    env = {**os.environ, "CERTIFY_TEST_LOG": str(log), "CERTIFY_TEST_DELAY": "0.2"}
    child = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.monotonic() + 60
    while cache_entries(out / "cache.jsonl") < 3:
        assert child.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    child.kill()
    child.wait()
    cached = cache_entries(out / "cache.jsonl")
    assert 3 <= cached < DISTINCT_HYBRIDS
    assert not (out / "receipts.jsonl").exists()  # outputs are written only at the end
    log.unlink()
    monkeypatch.setenv("CERTIFY_TEST_LOG", str(log))
    monkeypatch.setenv("CERTIFY_TEST_DELAY", "0")
    spec = "python:tests.certify.adjudicators:logged_grade"
    summary = run_certify(config(cases_file, out, spec, execution="exhaustive"))
    executed_now = log.read_text().count("\n")
    assert summary.run is not None and summary.run.executed == executed_now
    assert executed_now == DISTINCT_HYBRIDS - cached
    assert statuses(out) == EXPECTED


def test_a_partial_last_cache_line_is_cut_and_re_executed(cases_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_certify(config(cases_file, out, GRADE, execution="exhaustive"))
    cache = out / "cache.jsonl"
    lines = cache.read_text().splitlines(keepends=True)
    cache.write_text("".join(lines[:-1]) + lines[-1][:20])  # as a kill mid-write leaves it
    summary = run_certify(config(cases_file, out, GRADE, execution="exhaustive"))
    assert summary.run is not None and summary.run.executed == 1
    assert cache.read_text().endswith("\n") and cache_entries(cache) == DISTINCT_HYBRIDS


@pytest.mark.parametrize(
    ("function", "kind"),
    [
        ("crash_on_new_rubric", "crash"),
        ("hang_on_new_rubric", "timeout"),
        ("maybe_on_new_rubric", "label"),
        ("number_verdict", "label"),
    ],
)
def test_failures_are_counted_per_hybrid_and_uncertify_the_case(
    function: str, kind: str, cases_file: Path, tmp_path: Path
) -> None:
    spec = f"python:tests.certify.adjudicators:{function}"
    summary = run_certify(
        config(cases_file, tmp_path / "out", spec, execution="exhaustive", timeout_s=0.3)
    )
    rows = receipts(tmp_path / "out")
    failed = {i for i, r in rows.items() if r["failures"]}
    assert failed and all(rows[i]["status"] == "uncertified" for i in failed)
    for i in failed:
        assert rows[i]["reason"] == "failure" and rows[i]["receipt"] is None
        assert kind in rows[i]["message"]
        assert all(f["kind"] == kind for f in rows[i]["failures"])
    assert summary.failures_by_kind == {kind: sum(len(rows[i]["failures"]) for i in failed)}
    assert summary.counts["uncertified"] == len(failed) == summary.uncertified_by_reason["failure"]
    report = (tmp_path / "out" / "summary.md").read_text()
    assert "Failed executions" in report and all(i in report for i in failed)


def test_garbage_from_a_command_is_counted(cases_file: Path, tmp_path: Path) -> None:
    script = Path(__file__).with_name("adjudicators.py")
    spec = f"command:{sys.executable} {script} garbage"
    summary = run_certify(config(cases_file, tmp_path / "out", spec, execution="adaptive"))
    assert set(summary.failures_by_kind) == {"unparsable"}
    rows = receipts(tmp_path / "out")
    assert rows["regraded"]["status"] == "changed"  # never meets the new rubric
    assert rows["lower-mark"]["status"] == "uncertified"


def test_disagreeing_runs_uncertify_a_receipt_that_depends_on_them(tmp_path: Path) -> None:
    # fail -> pass by the new score or the new rubric; the new score's cell is unstable
    cases = write_cases(tmp_path / "c.jsonl", [case("flaky", (55, 62), rubric=True)])
    spec = "python:tests.certify.adjudicators:flaky_regrade"
    summary = run_certify(config(cases, tmp_path / "out", spec, execution="exhaustive", repeats=3))
    row = receipts(tmp_path / "out")["flaky"]
    assert row["status"] == "uncertified" and row["reason"] == "unstable"
    assert row["receipt"] is None and row["old"] == "fail" and row["new"] == "pass"
    # the grader did not change, so score and score+grader are one hybrid, run three times
    assert row["unstable"] == [
        {"cell": "score", "verdicts": ["pass", "fail", "pass"]},
        {"cell": "score+grader", "verdicts": ["pass", "fail", "pass"]},
    ]
    assert "depends on unstable cell(s) score, score+grader" in row["message"]
    assert summary.uncertified_by_reason == {"unstable": 1}
    # run once, the same adjudicator looks deterministic and gets a receipt: repeats exist
    once = run_certify(config(cases, tmp_path / "once", spec, execution="exhaustive"))
    assert once.counts["uncertified"] == 0


def test_runs_disagreeing_between_insufficient_labels_do_not_uncertify(tmp_path: Path) -> None:
    cases = write_cases(tmp_path / "c.jsonl", [case("noisy", (45, 55), rubric=True)])
    spec = "python:tests.certify.adjudicators:noisy_regrade"
    run_certify(config(cases, tmp_path / "out", spec, execution="exhaustive", repeats=2))
    row = receipts(tmp_path / "out")["noisy"]
    assert row["status"] == "changed" and row["receipt"] == [["score", "rubric"]]
    assert row["unstable"][0] == {"cell": "score", "verdicts": ["fail", "refer"]}
    # with a verdict order the monotone checks read labels, so the same noise uncertifies
    order = ("fail", "refer", "pass")
    cfg = config(cases, tmp_path / "mono", spec, execution="monotone", order=order, repeats=2)
    run_certify(cfg)
    mono = receipts(tmp_path / "mono")["noisy"]
    assert (mono["status"], mono["reason"]) == ("uncertified", "unstable")
    assert "depends on unstable cell(s) score" in mono["message"]


def test_a_budget_too_small_is_said_so(cases_file: Path, tmp_path: Path) -> None:
    summary = run_certify(
        config(cases_file, tmp_path / "out", GRADE, execution="adaptive", budget=3)
    )
    rows = receipts(tmp_path / "out")
    short = {i for i, r in rows.items() if r["reason"] == "budget"}
    assert short == {"regraded", "lower-mark", "both-needed", "lost-course"}
    assert all(
        rows[i]["queries"] == 3 and "budget of 3 queries" in rows[i]["message"] for i in short
    )
    assert rows["either"]["status"] == "ambiguous" and rows["unchanged"]["status"] == "stable"
    report = (tmp_path / "out" / "summary.html").read_text()
    assert "receipt not certified within the budget of 3 queries" in report
    assert summary.uncertified_by_reason == {"budget": 4}


def test_a_contradicted_monotone_order_is_reported_with_the_exact_receipt(tmp_path: Path) -> None:
    # the grader loses the course while the score rises: fail -> refer, but the new score alone
    # gives pass, above refer in the order fail < refer < pass
    cases = write_cases(
        tmp_path / "c.jsonl", [case("both", (55, 65), rubric=False, grader_new=True)]
    )
    cfg = config(
        cases, tmp_path / "mono", GRADE, execution="monotone", order=("fail", "refer", "pass")
    )
    summary = run_certify(cfg)
    row = receipts(tmp_path / "mono")["both"]
    assert row["assumption_violation"] is not None
    assert row["assumption_violation"]["upper_verdict"] == "refer"
    run_certify(config(cases, tmp_path / "exact", GRADE, execution="exhaustive"))
    assert row["receipt"] == receipts(tmp_path / "exact")["both"]["receipt"] == [["grader"]]
    assert len(summary.violations) == 1


def test_never_overwrites_a_file_it_did_not_write(cases_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.md").write_text("my notes\n")
    with pytest.raises(OutputError, match="summary.md exists and was not written by reasonbench"):
        run_certify(config(cases_file, out, GRADE))
    assert (out / "summary.md").read_text() == "my notes\n"
    assert not (out / "cache.jsonl").exists()  # refused before executing anything
    (out / "summary.md").unlink()
    run_certify(config(cases_file, out, GRADE))
    (out / "receipts.jsonl").write_text("edited\n")  # ours, but changed since: refused too
    with pytest.raises(OutputError, match="receipts.jsonl was changed since reasonbench wrote it"):
        run_certify(config(cases_file, out, GRADE))
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"a": 1}\n')
    with pytest.raises(CertifyError, match="not a reasonbench certify cache"):
        run_certify(config(cases_file, tmp_path / "out2", GRADE, cache=foreign))
    assert foreign.read_text() == '{"a": 1}\n'


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"execution": "lazy"}, "execution='lazy'"),
        ({"labels": ("pass",)}, "at least two"),
        ({"labels": ("pass", "pass")}, "repeated"),
        ({"order": ("fail", "pass", "refer")}, "only used by execution=monotone"),
        ({"execution": "monotone", "order": ("fail", "pass")}, "exactly the labels"),
        ({"execution": "exhaustive", "budget": 5}, "not exhaustive"),
        ({"repeats": 0}, "repeats=0"),
        ({"workers": 0}, "workers=0"),
        ({"timeout_s": 0}, "timeout_s=0"),
    ],
)
def test_bad_configs(
    overrides: dict[str, object], expected: str, cases_file: Path, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=expected) as info:
        run_certify(config(cases_file, tmp_path / "out", GRADE, **overrides))
    assert "\n" not in str(info.value)


def test_summary_json_round_trips(cases_file: Path, tmp_path: Path) -> None:
    summary = run_certify(config(cases_file, tmp_path / "out", GRADE, execution="monotone"))
    data = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert data == json.loads(json.dumps(summary.to_json()))
    assert data["config"]["execution"] == "monotone" and data["input"]["cases"] == 6
    assert data["receipts_by_set"][0] == {"set": "{rubric}", "cases": 2}


def test_progress_goes_to_stderr_as_plain_lines(
    cases_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REASONBENCH_PROGRESS", "lines")
    run_certify(config(cases_file, tmp_path / "out", GRADE, progress=True))
    captured = capsys.readouterr()
    assert captured.out == "" and "\r" not in captured.err
    assert captured.err.splitlines()[-1].startswith("certify: 6 cases in ")
