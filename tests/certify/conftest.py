"""Cases of one version change of an essay grader: the regrade changed some scores, the new
rubric lowers the pass mark from 60 to 50, and one grader lost a course."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import CertifyConfig

RUBRIC_OLD = {"pass_mark": 60, "course": "ENG101"}
RUBRIC_NEW = {"pass_mark": 50, "course": "ENG101"}
ANA = {"name": "Ana", "courses": ["ENG101", "ENG102"]}
ANA_NEW = {"name": "Ana", "courses": ["ENG102"]}


def case(
    case_id: str, score: tuple[int, int], rubric: bool, grader_new: bool = False
) -> dict[str, Any]:
    return {
        "id": case_id,
        "sources": {
            "score": {"old": score[0], "new": score[1]},
            "rubric": {"old": RUBRIC_OLD, "new": RUBRIC_NEW if rubric else RUBRIC_OLD},
            "grader": {"old": ANA, "new": ANA_NEW if grader_new else ANA},
        },
    }


CASES = [
    case("regraded", (55, 62), rubric=False),  # fail -> pass by the score alone
    case("lower-mark", (55, 55), rubric=True),  # fail -> pass by the rubric alone
    case("both-needed", (45, 55), rubric=True),  # fail -> pass only with both
    case("either", (55, 65), rubric=True),  # fail -> pass by either: ambiguous
    case("unchanged", (70, 70), rubric=True),  # pass -> pass: stable
    case("lost-course", (70, 70), rubric=False, grader_new=True),  # pass -> refer by the grader
]
EXPECTED = {
    "regraded": ("changed", [["score"]]),
    "lower-mark": ("changed", [["rubric"]]),
    "both-needed": ("changed", [["score", "rubric"]]),
    "either": ("ambiguous", [["score"], ["rubric"]]),
    "unchanged": ("stable", []),
    "lost-course": ("changed", [["grader"]]),
}


def write_cases(path: Path, cases: list[dict[str, Any]] | None = None) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in (cases or CASES)), encoding="utf-8")
    return path


@pytest.fixture
def cases_file(tmp_path: Path) -> Path:
    return write_cases(tmp_path / "cases.jsonl")


def config(cases: Path, out: Path, adjudicator: str, **overrides: Any) -> CertifyConfig:
    values: dict[str, Any] = {
        "cases": cases,
        "adjudicator": adjudicator,
        "labels": ("fail", "pass", "refer"),
        "out_dir": out,
        "progress": False,
        "workers": 2,
        "timeout_s": 10.0,
    }
    values.update(overrides)
    return CertifyConfig(**values)


def receipts(out: Path) -> dict[str, dict[str, Any]]:
    # JSONL lines end at "\n" only (a raw U+2028 in a value is not a line end)
    lines = (out / "receipts.jsonl").read_text(encoding="utf-8").split("\n")[:-1]
    return {row["id"]: row for row in map(json.loads, lines)}
