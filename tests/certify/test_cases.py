"""The case file: the documented schema, and one line naming file:line for every bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.certify import CaseFileError, read_cases
from tests.certify.conftest import CASES, write_cases


def test_reads_sources_in_first_line_order_and_builds_hybrids(cases_file: Path) -> None:
    case_set = read_cases(cases_file)
    assert case_set.sources == ("score", "rubric", "grader")
    assert [c.id for c in case_set.cases] == [c["id"] for c in CASES]
    first = case_set.cases[0]
    assert first.hybrid(0b001, case_set.sources)["score"] == 62
    assert first.hybrid(0b001, case_set.sources)["rubric"] == {"pass_mark": 60, "course": "ENG101"}
    assert list(first.hybrid(0, case_set.sources)) == ["score", "rubric", "grader"]


def test_declared_source_order_wins_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n" + json.dumps(CASES[0]) + "\n\n", encoding="utf-8")
    case_set = read_cases(path, ("grader", "score", "rubric"))
    assert case_set.sources == ("grader", "score", "rubric")
    assert case_set.cases[0].line == 2
    assert case_set.cases[0].old[1] == 55


def bad_line(tmp_path: Path, second: str) -> str:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASES[0]) + "\n" + second + "\n", encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        read_cases(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}:2: ")
    return message


def other(**changes: object) -> str:
    data = json.loads(json.dumps(CASES[1]))
    data.update(changes)
    return json.dumps(data)


def test_a_source_missing_in_one_version(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CASES[1]))
    del data["sources"]["rubric"]["new"]
    assert "source 'rubric' has no 'new' value" in bad_line(tmp_path, json.dumps(data))


def test_duplicate_ids(tmp_path: Path) -> None:
    message = bad_line(tmp_path, other(id=CASES[0]["id"]))
    assert "duplicate id 'regraded' (first on line 1)" in message


def test_a_different_source_set(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CASES[1]))
    data["sources"]["essay"] = data["sources"].pop("grader")
    message = bad_line(tmp_path, json.dumps(data))
    assert (
        "other sources" in message
        and "missing ['grader']" in message
        and "extra ['essay']" in message
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"id": "x", "sources": ', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (other(gold="pass"), "unexpected key(s) ['gold']"),
        ('{"id": "x"}', "missing key(s) ['sources']"),
        (other(id=""), "'id' must be a non-empty string"),
        (other(id=7), "'id' must be a non-empty string"),
        (other(sources={}), "non-empty object"),
        (other(sources={"score": [1, 2], "rubric": {}, "grader": {}}), "must be an object"),
    ],
)
def test_malformed_lines(tmp_path: Path, line: str, expected: str) -> None:
    assert expected in bad_line(tmp_path, line)


def test_extra_version_key_and_bad_source_names(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CASES[1]))
    data["sources"]["score"]["older"] = 1
    assert "unexpected key(s) ['older']" in bad_line(tmp_path, json.dumps(data))
    path = tmp_path / "plus.jsonl"
    path.write_text(json.dumps({"id": "a", "sources": {"a+b": {"old": 1, "new": 2}}}) + "\n")
    with pytest.raises(CaseFileError, match=r"plus.jsonl:1: source name 'a\+b' must not contain"):
        read_cases(path)


def test_empty_or_unreadable_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(CaseFileError, match="no cases"):
        read_cases(empty)
    with pytest.raises(CaseFileError, match="cannot read the case file"):
        read_cases(tmp_path / "missing.jsonl")
    assert len(read_cases(write_cases(tmp_path / "ok.jsonl")).cases) == len(CASES)
