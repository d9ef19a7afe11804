"""summary.json's counting sections by their exact names and shapes: ``counts`` (every status,
zeros included), ``uncertified_by_reason`` and ``receipts_by_family`` (a list of
``{"family", "cases"}``, most frequent first), which the reports and users' scripts read."""

from __future__ import annotations

from reasonbench.certify.casework import CaseResult
from reasonbench.certify.summary import summarize

SOURCES = ("score", "rubric")
SCORE, RUBRIC = 1, 2


def result(
    case_id: str, status: str, sets: tuple[int, ...] | None, reason: str | None = None
) -> CaseResult:
    return CaseResult(case_id, SOURCES, status, "fail", "pass", sets, queries=2, reason=reason)


def test_counts_reasons_and_families_in_summary_json() -> None:
    results = [
        result("a", "changed", (SCORE,)),
        result("b", "ambiguous", (SCORE, RUBRIC)),
        result("c", "changed", (SCORE,)),
        result("d", "uncertified", None, reason="budget"),
        result("e", "uncertified", None, reason="failure"),
        result("f", "uncertified", None, reason="budget"),
    ]
    data = summarize(results, SOURCES, {"execution": "adaptive"}, {"cases": 6}).to_json()
    assert data["counts"] == {"changed": 2, "ambiguous": 1, "stable": 0, "uncertified": 3}
    assert data["uncertified_by_reason"] == {"budget": 2, "failure": 1}
    assert data["receipts_by_family"] == [
        {"family": "{score}", "cases": 2},
        {"family": "{score} or {rubric}", "cases": 1},
    ]
    assert list(data) == [
        "config",
        "input",
        "counts",
        "uncertified_by_reason",
        "receipts_by_family",
        "receipts_by_set",
        "queries",
        "failures_by_kind",
        "failures",
        "uncertified",
        "unstable",
        "assumption_violations",
        "receipts_under_assumption",
        "monotone_check",
    ]
