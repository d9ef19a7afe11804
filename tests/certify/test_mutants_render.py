"""The summary report from a hand-built summary: a query share that is undefined (no interior
hybrid: every case has one source) shows as a dash, several assumptions are listed each with
its count, a monotone check that re-asked without a contradiction says so, and each HTML table
carries its id (the anchor a link to ``summary.html#queries`` needs).

The "Not certified" section of a run with trouble, exactly as a reader sees it in summary.md and
summary.html: the uncertified cases, the failed executions counted by kind and listed one per
row, and the unstable cells with every run's verdict (the empty cell shown as ``∅``); each table
under its heading (Markdown) or caption and id (HTML), inside the complete HTML page.

The same section of a run that contradicted the monotone assumption: the sentence that the
receipts come from the exact fallback, then each violation as subset and superset with their
verdicts (the empty cell shown as ``∅``) and who found it, re-asking or the search."""

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


def troubled() -> CertifySummary:
    """Two of four cases uncertified: one by three failed executions of two kinds, one by two
    unstable cells (∅ and ``case``) whose runs disagree."""
    return summary(
        input={
            "cases": 4,
            "name": "cases.jsonl",
            "sha256": "ab" * 32,
            "sources": ["rubric", "case"],
        },
        counts={"changed": 1, "ambiguous": 0, "stable": 1, "uncertified": 2},
        uncertified_by_reason={"failure": 1, "unstable": 1},
        families=[("{rubric}", 1)],
        sets=[("{rubric}", 1)],
        under_assumption={"monotone": 2},
        uncertified=[
            {"id": "c3", "reason": "failure", "message": "2 hybrid(s) failed"},
            {"id": "c4", "reason": "unstable", "message": "unstable cell(s) ∅, case"},
        ],
        failures_by_kind={"crash": 1, "timeout": 2},
        failures=[
            {"id": "c3", "cell": "", "run": 0, "kind": "timeout", "detail": "no answer in 30 s"},
            {"id": "c3", "cell": "rubric", "run": 1, "kind": "timeout", "detail": "no answer"},
            {"id": "c3", "cell": "rubric+case", "run": 0, "kind": "crash", "detail": "exit 1 <x>"},
        ],
        unstable=[
            {
                "id": "c4",
                "cells": [
                    {"cell": "", "verdicts": ["pass", "fail", "pass"]},
                    {"cell": "case", "verdicts": ["fail", "pass"]},
                ],
            }
        ],
    )


def test_the_markdown_lists_what_was_not_certified() -> None:
    markdown = to_markdown(troubled())
    # The section is the end of summary.md: everything after its heading, exactly.
    assert markdown[markdown.index("## Not certified\n") :] == (
        "## Not certified\n"
        "\n"
        "### Uncertified cases\n"
        "\n"
        "| case | reason | why |\n"
        "|---|---|---|\n"
        "| c3 | failure | 2 hybrid(s) failed |\n"
        "| c4 | unstable | unstable cell(s) ∅, case |\n"
        "\n"
        "Failed executions by kind: crash: 1, timeout: 2.\n"
        "\n"
        "### Failed executions\n"
        "\n"
        "| case | hybrid | run | kind | detail |\n"
        "|---|---|---|---|---|\n"
        "| c3 | ∅ | 0 | timeout | no answer in 30 s |\n"
        "| c3 | rubric | 1 | timeout | no answer |\n"
        "| c3 | rubric+case | 0 | crash | exit 1 <x> |\n"
        "\n"
        "### Cells whose runs disagree\n"
        "\n"
        "| case | cells: runs |\n"
        "|---|---|\n"
        "| c4 | ∅: pass/fail/pass; case: fail/pass |\n"
    )


def test_the_html_page_ends_with_the_tables_of_what_was_not_certified() -> None:
    page = to_html(troubled())
    # Each table keeps its id (summary.html#failures links to it), one block per line, and the
    # page closes after the last one.
    assert page[page.index("<h2>Not certified</h2>") :] == (
        "<h2>Not certified</h2>\n"
        '<table id="uncertified"><caption>Uncertified cases</caption><thead><tr><th>case</th>'
        "<th>reason</th><th>why</th></tr></thead><tbody>"
        "<tr><td>c3</td><td>failure</td><td>2 hybrid(s) failed</td></tr>"
        "<tr><td>c4</td><td>unstable</td><td>unstable cell(s) ∅, case</td></tr>"
        "</tbody></table>\n"
        "<p>Failed executions by kind: crash: 1, timeout: 2.</p>\n"
        '<table id="failures"><caption>Failed executions</caption><thead><tr><th>case</th>'
        "<th>hybrid</th><th>run</th><th>kind</th><th>detail</th></tr></thead><tbody>"
        "<tr><td>c3</td><td>∅</td><td>0</td><td>timeout</td><td>no answer in 30 s</td></tr>"
        "<tr><td>c3</td><td>rubric</td><td>1</td><td>timeout</td><td>no answer</td></tr>"
        "<tr><td>c3</td><td>rubric+case</td><td>0</td><td>crash</td><td>exit 1 &lt;x&gt;</td></tr>"
        "</tbody></table>\n"
        '<table id="unstable"><caption>Cells whose runs disagree</caption><thead><tr>'
        "<th>case</th><th>cells: runs</th></tr></thead><tbody>"
        "<tr><td>c4</td><td>∅: pass/fail/pass; case: fail/pass</td></tr>"
        "</tbody></table>\n"
        "</body></html>\n"
    )


def test_the_html_page_starts_as_a_standalone_document() -> None:
    page = to_html(troubled())
    # A browser needs the doctype, the language and the charset (∅ is not ASCII) before the style.
    assert page.startswith(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>reasonbench certify</title><style>body{"
    )
    assert "}</style></head><body>\n<h1>Receipts for a version change</h1>\n<p>4 cases " in page


def contradicted() -> CertifySummary:
    """Every case certified, two of them by the exact fallback after a contradiction of the
    monotone assumption: one caught by re-asking (∅ answered pass, its superset rubric fail),
    one by the search itself."""
    return summary(
        input={
            "cases": 3,
            "name": "cases.jsonl",
            "sha256": "ab" * 32,
            "sources": ["rubric", "case"],
        },
        under_assumption={"monotone": 1},
        monotone_check={"cells_reasked": 4, "violations": 2, "violations_found_by_reasking": 1},
        violations=[
            {
                "id": "c1",
                "lower": "",
                "upper": "rubric",
                "lower_verdict": "pass",
                "upper_verdict": "fail",
                "found_by": "reasking",
            },
            {
                "id": "c2",
                "lower": "case",
                "upper": "rubric+case",
                "lower_verdict": "pass",
                "upper_verdict": "fail",
                "found_by": "search",
            },
        ],
    )


def test_the_markdown_lists_the_assumption_violations() -> None:
    markdown = to_markdown(contradicted())
    # Who found each contradiction tells whether re-asking (verify_fraction) was needed for it.
    assert markdown[markdown.index("## Not certified\n") :] == (
        "## Not certified\n"
        "\n"
        "Every case was certified.\n"
        "\n"
        "The monotone assumption was contradicted: these receipts come from the exact fallback.\n"
        "\n"
        "### Assumption violations\n"
        "\n"
        "| case | subset | superset | found by |\n"
        "|---|---|---|---|\n"
        "| c1 | ∅ = pass | rubric = fail | re-asking |\n"
        "| c2 | case = pass | rubric+case = fail | search |\n"
    )


def test_the_html_page_ends_with_the_assumption_violations() -> None:
    page = to_html(contradicted())
    # The table keeps its id (summary.html#violations links to it).
    assert page[page.index("<h2>Not certified</h2>") :] == (
        "<h2>Not certified</h2>\n"
        "<p>Every case was certified.</p>\n"
        "<p>The monotone assumption was contradicted: these receipts come from the exact "
        "fallback.</p>\n"
        '<table id="violations"><caption>Assumption violations</caption><thead><tr>'
        "<th>case</th><th>subset</th><th>superset</th><th>found by</th></tr></thead><tbody>"
        "<tr><td>c1</td><td>∅ = pass</td><td>rubric = fail</td><td>re-asking</td></tr>"
        "<tr><td>c2</td><td>case = pass</td><td>rubric+case = fail</td><td>search</td></tr>"
        "</tbody></table>\n"
        "</body></html>\n"
    )
