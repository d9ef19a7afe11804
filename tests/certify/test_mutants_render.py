"""The summary report from a hand-built summary: a query share that is undefined (no interior
hybrid: every case has one source) shows as a dash, several assumptions are listed each with
its count, a monotone check that re-asked without a contradiction says so, and each HTML table
carries its id (the anchor a link to ``summary.html#queries`` needs)."""

from __future__ import annotations

from typing import Any

from reasonbench.certify.render import to_html, to_markdown
from reasonbench.certify.summary import CertifySummary


def summary(**overrides: Any) -> CertifySummary:
    values: dict[str, Any] = {
        "config": {
            "adjudicator_id": "python:judge:grade",
            "execution": "monotone",
            "repeats": 1,
            "budget": None,
            "verify_fraction": 0.25,
        },
        "input": {"cases": 3, "name": "cases.jsonl", "sha256": "ab" * 32, "sources": ["score"]},
        "counts": {"changed": 2, "ambiguous": 0, "stable": 1, "uncertified": 0},
        "uncertified_by_reason": {},
        "families": [("{score}", 2)],
        "sets": [("{score}", 2)],
        "queries": {"spent": 0, "interior_cells": 0, "share": None, "mean_per_case": 0.0},
        "failures_by_kind": {},
        "failures": [],
        "uncertified": [],
        "unstable": [],
        "violations": [],
        "under_assumption": {"monotone": 2, "monotone in fail < pass": 1},
        "monotone_check": {"cells_reasked": 4, "violations": 0, "violations_found_by_reasking": 0},
    }
    values.update(overrides)
    return CertifySummary(**values)


def test_an_undefined_share_is_a_dash_a_defined_one_a_percentage() -> None:
    assert "| 0 | 0 | — | 0.0 |" in to_markdown(summary())
    spent = {"spent": 3, "interior_cells": 12, "share": 0.25, "mean_per_case": 1.0}
    assert "| 3 | 12 | 25.0% | 1.0 |" in to_markdown(summary(queries=spent))


def test_the_outcome_note_lists_every_assumption_and_the_check() -> None:
    note = (
        "3 of 3 cases certified. Receipts exact only if the declared assumption holds: "
        "2 under the assumption 'monotone', 1 under the assumption 'monotone in fail < pass'. "
        "The certifier checks every answer against the assumption and re-asked 4 of the cells "
        "it had inferred (verify_fraction 0.25): none contradicted it; cells never asked cannot "
        "contradict it."
    )
    assert f"\n{note}\n" in to_markdown(summary())


def test_each_html_table_has_its_id() -> None:
    page = to_html(summary())
    for name in ("outcome", "families", "sets", "queries"):
        assert page.count(f'<table id="{name}">') == 1, name
