"""The execution cache (format 2, stored by the project's answer cache): replayable failures are
kept and transient ones retried, format-1 files are migrated in place, foreign files refused,
and a file cut at any byte by a kill reloads as the entries written before the cut."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.certify import CertifyError, ExecutionCache, register_kind, run_certify
from reasonbench.certify.plugins import KINDS
from tests.certify.adjudicators import UnreadableOnNewRubric
from tests.certify.conftest import config, receipts

LOGGED = "python:tests.certify.adjudicators:logged_grade"
UNREADABLE = "unreadable:grade"
MARKER = '{"format": 2, "key": "reasonbench_certify_cache"}\n'


@pytest.fixture
def unreadable_kind() -> Iterator[None]:
    register_kind("unreadable")(UnreadableOnNewRubric)
    yield
    KINDS.unregister("unreadable")


@pytest.mark.usefixtures("unreadable_kind")
def test_replayable_failures_are_cached_transient_ones_retried(
    cases_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "executions.log"
    monkeypatch.setenv("CERTIFY_TEST_LOG", str(log))
    out = tmp_path / "out"
    first = run_certify(config(cases_file, out, UNREADABLE, execution="exhaustive", repeats=2))
    rows = receipts(out)
    assert rows["lower-mark"]["status"] == "uncertified"
    failures = rows["lower-mark"]["failures"]
    assert [(f["run"], f["kind"]) for f in failures] == [(0, "unparsable"), (1, "unparsable")]
    cached = (out / "cache.jsonl").read_text().splitlines()
    assert cached[0] + "\n" == MARKER and any('"failure"' in line for line in cached)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    executed = log.read_text().count("\n")
    assert first.run is not None and first.run.executed == executed > 0
    second = run_certify(config(cases_file, out, UNREADABLE, execution="exhaustive", repeats=2))
    assert second.run is not None and second.run.executed == 0  # the answers are on record
    assert log.read_text().count("\n") == executed
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # a crash is transient: it is retried by the rerun (tests/certify/test_run.py covers it too)
    crash = "python:tests.certify.adjudicators:crash_on_new_rubric"
    run_certify(config(cases_file, tmp_path / "crash", crash, execution="exhaustive"))
    assert '"failure"' not in (tmp_path / "crash" / "cache.jsonl").read_text()


def test_a_format_1_cache_is_migrated_in_place(
    cases_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "executions.log"
    monkeypatch.setenv("CERTIFY_TEST_LOG", str(log))
    out = tmp_path / "out"
    run_certify(config(cases_file, out, LOGGED, execution="exhaustive", repeats=2))
    cache = out / "cache.jsonl"
    entries = [json.loads(line) for line in cache.read_text().splitlines()[1:]]
    v1 = ['{"reasonbench_certify_cache": 1}']  # as certify wrote it before format 2
    for entry in entries:
        key, run = entry["key"].rsplit("/", 1)
        v1.append(json.dumps({"key": key, "run": int(run), "verdict": entry["verdict"]}))
    cache.write_text("\n".join(v1) + "\n" + '{"key": "cut sh')  # and a kill's partial line
    executed = log.read_text().count("\n")
    summary = run_certify(config(cases_file, out, LOGGED, execution="exhaustive", repeats=2))
    assert summary.run is not None and summary.run.executed == 0
    assert log.read_text().count("\n") == executed
    lines = cache.read_text().splitlines()
    assert lines[0] + "\n" == MARKER and len(lines) == len(entries) + 1
    assert not list(tmp_path.glob("out/*.migrating"))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"key": "abc", "raw": "an answer"}\n', "not a reasonbench certify cache"),  # serve's
        ("plain text\n", "not a reasonbench certify cache"),
        ('{"format": 3, "key": "reasonbench_certify_cache"}\n', "of format 3; this version"),
        (MARKER + "{not json\n" + '{"key": "x/0", "verdict": "pass"}\n', "corrupt cache entry"),
    ],
)
def test_foreign_or_corrupt_files_are_refused_and_left_untouched(
    content: str, expected: str, tmp_path: Path
) -> None:
    path = tmp_path / "cache.jsonl"
    path.write_text(content)
    with pytest.raises(CertifyError, match=expected) as info:
        ExecutionCache(path)
    assert "\n" not in str(info.value) and path.read_text() == content


OUTCOMES = st.one_of(
    st.sampled_from(["pass", "fail", "refer"]),
    st.tuples(st.sampled_from(["unparsable", "label"]), st.text(max_size=12)),
)
ENTRIES = st.lists(
    st.tuples(st.sampled_from("abcdef"), st.integers(0, 2), OUTCOMES),
    max_size=12,
    unique_by=lambda e: (e[0], e[1]),
)


@settings(max_examples=40, deadline=None)
@given(entries=ENTRIES, cut=st.floats(0, 1))
def test_a_cut_file_reloads_the_entries_written_before_the_cut(
    entries: list[tuple[str, int, str | tuple[str, str]]],
    cut: float,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    path = tmp_path_factory.mktemp("cut") / "cache.jsonl"
    cache = ExecutionCache(path)
    ends = []
    for key, run, outcome in entries:
        cache.put(key, run, outcome)
        ends.append(path.stat().st_size)
    cache.close()
    data = path.read_bytes() if path.exists() else b""  # nothing put: nothing written
    at = int(cut * len(data))
    path.write_bytes(data[:at])  # what a kill at byte ``at`` leaves
    again = ExecutionCache(path)
    kept = [e for e, end in zip(entries, ends, strict=True) if end <= at]
    assert len(again) == len(kept)
    for key, run, outcome in entries:
        expected = outcome if (key, run, outcome) in kept else None
        assert again.get(key, run) == expected
    again.put("z", 0, "pass")  # appending after the cut keeps the file well-formed
    again.close()
    assert ExecutionCache(path).get("z", 0) == "pass"
