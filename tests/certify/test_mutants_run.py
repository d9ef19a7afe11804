"""``run_certify``'s scheduling and echo, observed from outside: the config echo in
summary.json (every key that decides the outputs, by its exact name), ``workers`` threads and
no more, at most 2 x workers cases submitted ahead, a finished case freeing its slot at once,
a Ctrl-C cancelling the queued cases, ``verify_seed`` reaching the sampler, and progress lines
(count of total, executions so far) only when asked for. Then what it writes and returns: the
configured source order in the echo and the receipts, the ledger naming ``certify`` as the
writer, ``overwrite=True`` replacing a foreign file, the one line a stopped adjudicator ends the
run with, and the returned statistics (executions, cached before, seconds)."""

from __future__ import annotations

import concurrent.futures
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import reasonbench.certify.run as run_module
from reasonbench.certify import AdjudicatorUnavailable, OutputError, run_certify
from reasonbench.certify.plugins import KINDS, register_kind
from tests.certify.adjudicators import grade
from tests.certify.conftest import CASES, config, receipts, write_cases
from tests.certify.test_monotone_check import all_tables, monotone, table_cases

GRADE = "python:tests.certify.adjudicators:grade"
HERE = "python:tests.certify.test_mutants_run"
TABLE = "python:tests.certify.adjudicators:table_rule"
DISTINCT_HYBRIDS = 10  # the six essay cases share hybrids; the cache executes each once


class Probe:
    """Shared state of the adjudicators below (reset by each test)."""

    lock = threading.Lock()
    active = 0
    max_active = 0
    seen: list[int] = []
    started = threading.Event()
    release = threading.Event()
    others_done: set[int] = set()

    @classmethod
    def reset(cls) -> None:
        cls.active = cls.max_active = 0
        cls.seen = []
        cls.started = threading.Event()
        cls.release = threading.Event()
        cls.others_done = set()


def n_cases(path: Path, count: int) -> Path:
    """``count`` cases ``c0``, ``c1``, ... of one source ``n`` whose old and new value are the
    case's number: each case is one distinct hybrid, executed once."""
    cases = [{"id": f"c{i}", "sources": {"n": {"old": i, "new": i}}} for i in range(count)]
    return write_cases(path, cases)


def overlap(hybrid: dict[str, Any]) -> str:
    """Records how many executions are in flight at once; the first waits (at most 0.3 s) for
    a second one to join it."""
    with Probe.lock:
        Probe.active += 1
        Probe.max_active = max(Probe.max_active, Probe.active)
        first = not Probe.started.is_set()
        Probe.started.set()
        if Probe.active > 1:
            Probe.release.set()
    if first:
        Probe.release.wait(0.3)
    with Probe.lock:
        Probe.active -= 1
    return "pass"


def slow_first(hybrid: dict[str, Any]) -> str:
    """Case 0 waits (at most 3 s) until the five other cases are done: ``pass`` if they all
    were, ``fail`` if it gave up."""
    n = hybrid["n"]
    if n == 0:
        return "pass" if Probe.release.wait(3) else "fail"
    with Probe.lock:
        Probe.others_done.add(n)
        if len(Probe.others_done) == 5:
            Probe.release.set()
    return "pass"


def blocked(hybrid: dict[str, Any]) -> str:
    """Logs the case, signals that it started, and holds its worker for 0.3 s."""
    with Probe.lock:
        Probe.seen.append(hybrid["n"])
    Probe.started.set()
    Probe.release.wait(0.3)
    return "pass"


def test_the_config_echo_names_every_key_that_decides_the_outputs(tmp_path: Path) -> None:
    """summary.json's ``config`` is exactly these keys with these values (no workers, progress
    or output paths), the verdict order as a list."""
    cases = n_cases(tmp_path / "cases.jsonl", 1)
    run_certify(
        config(
            cases,
            tmp_path / "out",
            GRADE,
            execution="monotone",
            labels=("fail", "pass", "refer"),
            order=("fail", "refer", "pass"),
            verify_fraction=0.25,
            verify_seed=7,
            timeout_s=12.5,
            budget=3,
            repeats=2,
            adjudicator_version="v2",
        )
    )
    data = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert data["config"] == {
        "adjudicator": GRADE,
        "adjudicator_id": GRADE + "@v2",
        "labels": ["fail", "pass", "refer"],
        "execution": "monotone",
        "budget": 3,
        "order": ["fail", "refer", "pass"],
        "verify_fraction": 0.25,
        "verify_seed": 7,
        "repeats": 2,
        "timeout_s": 12.5,
        "sources": ["n"],
        "plugin_options": {},
    }


@pytest.fixture
def fixed_kind() -> Iterator[None]:
    """A plug-in kind ``fixed`` (always ``pass``) that accepts any ``plugin_options``."""
    register_kind("fixed")(_Fixed)
    yield
    KINDS.unregister("fixed")


@pytest.mark.usefixtures("fixed_kind")
def test_plugin_options_are_echoed(tmp_path: Path) -> None:
    """``plugin_options`` decide a plug-in's answers, so they are in the echo as given."""
    cases = n_cases(tmp_path / "cases.jsonl", 1)
    run_certify(
        config(
            cases,
            tmp_path / "out",
            "fixed:x",
            plugin_options={"temperature": 0, "model": "m"},
        )
    )
    data = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert data["config"]["plugin_options"] == {"temperature": 0, "model": "m"}


class _Fixed:
    def __init__(self, target: str, options: object) -> None:
        self.id = f"fixed:{target}"

    def __call__(self, hybrid: dict[str, Any]) -> str:
        return "pass"


def test_no_more_than_workers_cases_run_at_once(tmp_path: Path) -> None:
    """``workers=1``: one case at a time, although two are submitted ahead."""
    Probe.reset()
    cases = n_cases(tmp_path / "cases.jsonl", 3)
    run_certify(config(cases, tmp_path / "out", f"{HERE}:overlap", workers=1))
    assert Probe.max_active == 1


def test_at_most_two_times_workers_cases_are_submitted_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 2 workers the run never has more (or fewer, while cases remain) than 4 cases
    submitted and unfinished when it waits."""
    sizes: list[int] = []
    real_wait = concurrent.futures.wait

    def recording_wait(fs: Any, **kwargs: Any) -> Any:
        sizes.append(len(fs))
        return real_wait(fs, **kwargs)

    monkeypatch.setattr(run_module, "wait", recording_wait)
    cases = n_cases(tmp_path / "cases.jsonl", 9)
    run_certify(config(cases, tmp_path / "out", GRADE, workers=2))
    assert sizes[0] == 4 and max(sizes) == 4


def test_a_finished_case_frees_its_slot_at_once(tmp_path: Path) -> None:
    """A slow case does not hold back the others: while it runs, the cases after the first
    batch are submitted and finish (so case 0 sees all five others done)."""
    Probe.reset()
    cases = n_cases(tmp_path / "cases.jsonl", 6)
    summary = run_certify(config(cases, tmp_path / "out", f"{HERE}:slow_first", workers=2))
    rows = (tmp_path / "out" / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(rows[0])["old"] == "pass"
    assert summary.counts["stable"] == 6


def test_a_ctrl_c_cancels_the_queued_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt while waiting stops the run: the case in flight finishes, the case
    queued behind it is cancelled and never executed."""
    Probe.reset()

    def interrupted_wait(fs: Any, **kwargs: Any) -> Any:
        assert Probe.started.wait(5)  # case 0 holds the only worker
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "wait", interrupted_wait)
    cases = n_cases(tmp_path / "cases.jsonl", 4)
    with pytest.raises(KeyboardInterrupt):
        run_certify(config(cases, tmp_path / "out", f"{HERE}:blocked", workers=1))
    assert Probe.seen == [0]


def test_verify_seed_decides_the_reasked_sample(tmp_path: Path) -> None:
    """The cells re-asked under ``monotone`` are chosen from ``verify_seed``: with a quarter
    of the inferred cells re-asked, seeds 0 and 1 catch different non-monotone tables."""
    tables = [t for t in all_tables() if not monotone(t)][:24]
    cases = table_cases(tmp_path / "tables.jsonl", tables)
    caught: dict[int, set[str]] = {}
    for seed in (0, 1):
        out = tmp_path / f"seed{seed}"
        run_certify(
            config(
                cases,
                out,
                TABLE,
                labels=("fail", "pass"),
                execution="monotone",
                verify_fraction=0.25,
                verify_seed=seed,
            )
        )
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        caught[seed] = {
            v["id"] for v in summary["assumption_violations"] if v["found_by"] == "reasking"
        }
    assert caught[0] != caught[1]


def test_progress_lines_count_cases_of_the_total_and_executions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``progress=True``: lines ``certify: i/10 cases (p%)``, each with the executions so far
    (``executed=N``; before, a wait that returned two finished cases printed a line without it,
    seen once under load)."""
    monkeypatch.setenv("REASONBENCH_PROGRESS", "lines")
    cases = n_cases(tmp_path / "cases.jsonl", 10)
    run_certify(config(cases, tmp_path / "out", GRADE, workers=1, progress=True))
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("certify: 1/10 cases (10%)")
    assert all(re.search(r"executed=\d+$", line) for line in lines[:-1]), lines
    assert len(lines) == 10 and lines[-1].startswith("certify: 10 cases in ")


def test_no_progress_when_not_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``progress=False`` prints nothing, even where progress lines are forced."""
    monkeypatch.setenv("REASONBENCH_PROGRESS", "lines")
    cases = n_cases(tmp_path / "cases.jsonl", 10)
    run_certify(config(cases, tmp_path / "out", GRADE, workers=1, progress=False))
    assert capsys.readouterr().err == ""


# --- what run_certify writes and returns: the source order, the output ledger, overwrite=true,
# --- a stopped adjudicator's line, and the run's statistics


def test_configured_sources_fix_the_order_of_cells_and_receipt_members(
    cases_file: Path, tmp_path: Path
) -> None:
    """``sources`` (docs/certify.md: the order of cell keys and of a receipt's members) wins over
    the first line's order, in the echo and in every receipt."""
    out = tmp_path / "out"
    run_certify(config(cases_file, out, GRADE, sources=("rubric", "score", "grader")))
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert data["config"]["sources"] == data["input"]["sources"] == ["rubric", "score", "grader"]
    # the first line declares score before rubric; the configured order puts rubric first
    assert receipts(out)["both-needed"]["receipt"] == [["rubric", "score"]]


def test_the_ledger_records_each_output_as_written_by_certify(
    cases_file: Path, tmp_path: Path
) -> None:
    """The ownership ledger names the command that wrote each file (what a later command checks
    before replacing it)."""
    out = tmp_path / "out"
    run_certify(config(cases_file, out, GRADE))
    ledger = json.loads((out / ".reasonbench-outputs.json").read_text(encoding="utf-8"))
    assert {name: entry["command"] for name, entry in ledger["files"].items()} == dict.fromkeys(
        run_module.OUTPUTS, "certify"
    )


def test_a_directory_in_the_way_of_an_output_is_one_line_naming_certify(
    cases_file: Path, tmp_path: Path
) -> None:
    """The refusal says which command wanted to write the file there."""
    out = tmp_path / "out"
    (out / "summary.md").mkdir(parents=True)
    with pytest.raises(OutputError) as info:
        run_certify(config(cases_file, out, GRADE))
    assert (
        str(info.value)
        == f"{out / 'summary.md'} is a directory; reasonbench certify writes a file there"
    )


def test_overwrite_replaces_a_file_reasonbench_did_not_write(
    cases_file: Path, tmp_path: Path
) -> None:
    """``overwrite=True`` is the documented way past the refusal of a foreign file."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.md").write_text("my notes\n", encoding="utf-8")
    run_certify(config(cases_file, out, GRADE, overwrite=True))
    assert (out / "summary.md").read_text(encoding="utf-8").startswith("# ")


@pytest.fixture
def gone_kind() -> Iterator[None]:
    """A plug-in kind ``gone``: the essay grader, whose server is gone when asked about the new
    rubric (:class:`AdjudicatorUnavailable`, which stops the whole run)."""
    register_kind("gone")(_Gone)
    yield
    KINDS.unregister("gone")


class _Gone:
    def __init__(self, target: str, options: object) -> None:
        self.id = f"gone:{target}"

    def __call__(self, hybrid: dict[str, Any]) -> str:
        if hybrid["rubric"]["pass_mark"] == 50:
            raise AdjudicatorUnavailable("the judge stopped: server gone")
        return grade(hybrid)


@pytest.mark.usefixtures("gone_kind")
def test_a_stopped_adjudicator_is_one_line_saying_what_was_kept(tmp_path: Path) -> None:
    """The plug-in's reason, then how many executions the cache kept and where: a rerun resumes
    from them (docs/certify.md, "A server that cannot answer")."""
    out = tmp_path / "out"
    # the first two cases only: with a third queued, the one worker could start it between
    # case 2's stop and the run's cancelling it (3 executions kept, seen under mutmut's load)
    two = write_cases(tmp_path / "two.jsonl", CASES[:2])
    with pytest.raises(AdjudicatorUnavailable) as info:
        run_certify(config(two, out, "gone:x", workers=1))
    cache = out / "cache.jsonl"
    kept = len(cache.read_text(encoding="utf-8").splitlines()) - 1  # after the marker line
    assert kept == 2  # case 1's two distinct hybrids (old rubric); case 2 stops at its new one
    assert str(info.value) == (
        f"the judge stopped: server gone; stopped, {kept} execution(s) kept in {cache} "
        "(a rerun resumes)"
    )
    assert not (out / "summary.json").exists()  # no outputs of a run that stopped


def test_the_returned_statistics_count_executions_and_time_the_run(
    cases_file: Path, tmp_path: Path
) -> None:
    """``summary.run``: executions this run made, those the cache held before, and the wall
    time in seconds (within the time the call took)."""
    out = tmp_path / "out"
    began = time.monotonic()
    first = run_certify(config(cases_file, out, GRADE))
    took = time.monotonic() - began
    assert first.run is not None
    assert first.run.executed == DISTINCT_HYBRIDS and first.run.cached_before == 0
    assert isinstance(first.run.seconds, float) and 0 <= first.run.seconds <= took
    again = run_certify(config(cases_file, out, GRADE))
    assert again.run is not None
    assert (again.run.executed, again.run.cached_before) == (0, DISTINCT_HYBRIDS)
