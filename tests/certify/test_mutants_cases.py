"""The case reader's source order and messages, whole: up to 16 sources are read in the first
line's order (or the declared one), a 17th is refused naming the count and the limit, and a line
declaring another source set than the first names exactly what it lacks and what it adds,
joined as docs/certify.md shows (``(missing [...], extra [...])``), with no empty part."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import CaseFileError, read_cases
from tests.certify.conftest import CASES


def many_sources(count: int) -> dict[str, Any]:
    # names in an order that is not sorted: the first line's order must be kept as written
    names = [f"s{i:02d}" for i in reversed(range(count))]
    return {"id": "wide", "sources": {n: {"old": 0, "new": 1} for n in names}}


def test_sixteen_sources_are_read_in_first_line_order(tmp_path: Path) -> None:
    # docs/certify.md: "at most 16" — 16 itself is allowed
    path = tmp_path / "wide.jsonl"
    case = many_sources(16)
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    case_set = read_cases(path)
    assert case_set.sources == tuple(case["sources"])
    assert case_set.sources[:2] == ("s15", "s14")
    assert read_cases(path, tuple(sorted(case["sources"]))).sources[:2] == ("s00", "s01")


def test_a_seventeenth_source_is_refused_naming_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "wide.jsonl"
    path.write_text("\n" + json.dumps(many_sources(17)) + "\n", encoding="utf-8")
    with pytest.raises(CaseFileError) as info:
        read_cases(path)
    # line 2: the blank first line is skipped, the message names the line that declared them
    assert str(info.value) == f"{path}:2: 17 sources; at most 16 are supported"


def other_sources(drop: str | None, add: str | None) -> str:
    data = json.loads(json.dumps(CASES[1]))
    if drop is not None:
        del data["sources"][drop]
    if add is not None:
        data["sources"][add] = {"old": 1, "new": 2}
    return json.dumps(data)


@pytest.mark.parametrize(
    ("drop", "add", "parts"),
    [
        ("grader", "essay", "missing ['grader'], extra ['essay']"),  # the documented example
        ("grader", None, "missing ['grader']"),  # nothing extra: no "extra" part
        (None, "essay", "extra ['essay']"),  # nothing missing: no "missing" part
    ],
)
def test_another_source_set_names_what_is_missing_and_what_is_extra(
    drop: str | None, add: str | None, parts: str, tmp_path: Path
) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASES[0]) + "\n" + other_sources(drop, add) + "\n")
    with pytest.raises(CaseFileError) as info:
        read_cases(path)
    assert str(info.value) == (
        f"{path}:2: case 'lower-mark' declares other sources than "
        f"['score', 'rubric', 'grader'] ({parts})"
    )
