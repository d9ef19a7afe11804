"""summary.json's sections by their exact names and shapes: ``counts`` (every status, zeros
included), ``uncertified_by_reason`` and ``receipts_by_family`` (a list of ``{"family", "cases"}``,
most frequent first); ``queries`` (spent against the summed 2^k − 2, ``share`` and
``mean_per_case`` ``null`` when there is nothing to divide by, and the queries of each status);
and ``assumption_violations`` with ``found_by`` (``reasking`` or ``search``) — which the reports
and users' scripts read."""

from __future__ import annotations

from typing import Any

from reasonbench.certify.casework import CaseResult
from reasonbench.certify.summary import summarize
from reasonbench.core.verdict_order import Violation

SOURCES = ("score", "rubric")
SCORE, RUBRIC = 1, 2


def result(
    case_id: str,
    status: str,
    sets: tuple[int, ...] | None,
    reason: str | None = None,
    queries: int = 2,
    **found: Any,
) -> CaseResult:
    """A fail -> pass case; ``found``: what the monotone check found (violation, reasked, ...)."""
    return CaseResult(
        case_id, SOURCES, status, "fail", "pass", sets, queries=queries, reason=reason, **found
    )


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


def test_queries_section_in_summary_json() -> None:
    # distinct query counts per status, so each status's sum is its own queries, not the others'
    results = [
        result("a", "changed", (SCORE,), queries=1),
        result("b", "changed", (RUBRIC,), queries=2),
        result("c", "stable", (), queries=0),
        result("d", "uncertified", None, reason="budget", queries=1),
    ]
    data = summarize(results, SOURCES, {"execution": "adaptive"}, {"cases": 4}).to_json()
    # two sources: 2^2 - 2 = 2 interior cells per case
    assert data["queries"] == {
        "spent": 4,
        "interior_cells": 8,
        "share": 0.5,
        "mean_per_case": 1.0,
        "by_status": {"changed": 3, "ambiguous": 0, "stable": 0, "uncertified": 1},
    }


def test_queries_share_is_null_without_interior_cells() -> None:
    # one source: 2^1 - 2 = 0 interior cells, so no share to report (not a division by zero)
    one = ("score",)
    results = [CaseResult("a", one, "changed", "fail", "pass", (1,), queries=0)]
    data = summarize(results, one, {"execution": "adaptive"}, {"cases": 1}).to_json()
    assert data["queries"] == {
        "spent": 0,
        "interior_cells": 0,
        "share": None,
        "mean_per_case": 0.0,
        "by_status": {"changed": 0, "ambiguous": 0, "stable": 0, "uncertified": 0},
    }


def test_queries_mean_per_case_is_null_without_cases() -> None:
    # an empty case file: no mean to report (not a division by zero)
    data = summarize([], SOURCES, {"execution": "adaptive"}, {"cases": 0}).to_json()
    assert data["queries"]["mean_per_case"] is None
    assert data["queries"]["share"] is None


def test_assumption_violations_say_how_they_were_found() -> None:
    # one violation from the re-asked sample, one met by the search itself
    violation = Violation(
        lower=SCORE, upper=SCORE | RUBRIC, lower_verdict="pass", upper_verdict="fail"
    )
    results = [
        result(
            "reasked", "changed", (SCORE,), violation=violation, reasked=1, caught_by_reasking=True
        ),
        result("clean", "changed", (SCORE,)),
        result("searched", "changed", (SCORE,), violation=violation),
    ]
    data = summarize(results, SOURCES, {"execution": "monotone"}, {"cases": 3}).to_json()
    found = {
        "lower": "score",
        "upper": "score+rubric",
        "lower_verdict": "pass",
        "upper_verdict": "fail",
    }
    assert data["assumption_violations"] == [
        {"id": "reasked", **found, "found_by": "reasking"},
        {"id": "searched", **found, "found_by": "search"},
    ]
