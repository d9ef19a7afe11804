"""Subgroup tables: receipt accuracy per structural subgroup, the paired differences per subgroup
(with CIs), and the shift splits (operator / linguistic / depth)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.analysis.metrics import (
    PARSE_FAILURE_RATE,
    RECEIPT_ACCURACY,
    REVISED_VERDICT_ACCURACY,
)
from reasonbench.analysis.record import SeedEntry
from reasonbench.reports.lookup import LOCKED
from reasonbench.reports.render import Table
from reasonbench.reports.tables.common import NOT_RUN, Cell, View, ci_cells, paper, pct

__all__ = ["RECEIPT_ROLES", "SHIFTS", "shift", "structural_subgroups", "subgroup_differences"]

RECEIPT_ROLES = ("direct_receipt", "rationale_receipt", "cube", "tfidf", "majority")
SHIFTS = (LOCKED, "shift_operator", "shift_linguistic", "shift_depth")


def structural_subgroups(view: View) -> Table:
    rows_of = view.methods(RECEIPT_ROLES, View.accounts)
    values: dict[str, set[str]] = {}
    for row in rows_of:
        for s in row.entry.seeds.values() if row.entry else ():
            for family, groups in s.subgroups.items():
                values.setdefault(family, set()).update(groups)
    rows: list[list[Cell]] = []
    for family, found in values.items():
        for value in sorted(found):

            def get(s: SeedEntry, family: str = family, value: str = value) -> float | None:
                summary = s.subgroups.get(family, {}).get(value)
                ratio = None if summary is None else summary.metrics.get(RECEIPT_ACCURACY)
                return None if ratio is None else ratio.value

            cells: list[Cell] = [family, value]
            for r in rows_of:
                cells.append(NOT_RUN if r.entry is None else pct(view.per_seed(r.method, get)))
            rows.append(cells)
    return Table(
        "structural_subgroups",
        "Exact receipt accuracy by structural subgroup, locked test (%)",
        ["subgroup", "value", *(r.method for r in rows_of)],
        rows,
        "Mean over each method's own seeds. Paired differences with CIs: subgroup_differences.",
    )


def subgroup_differences(view: View, figures: Mapping[str, Any]) -> Table:
    """Every comparison's a − b per subgroup value (the ``by`` of analyze's comparisons)."""
    rows: list[list[Cell]] = []
    for comp in view.report.inference.comparisons.values():
        if comp.status != "ok":  # the paper's per-stratum figures, still beside a "not run"
            given = paper(figures, "comparisons", comp.name, "subgroups") or {}
            for value in sorted(given) or [None]:
                family = None if value is None else "stratum"
                reference = None if value is None else given[value]
                rows.append([comp.name, comp.split, family, value, NOT_RUN, None, None, None,
                             reference])  # fmt: skip
            continue
        for family, groups in comp.subgroups.items():
            for value, outcomes in groups.items():
                receipt = outcomes.get(RECEIPT_ACCURACY)
                verdict = outcomes.get(REVISED_VERDICT_ACCURACY)
                reference = (
                    paper(figures, "comparisons", comp.name, "subgroups", value)
                    if family == "stratum"
                    else None
                )
                rows.append([comp.name, comp.split, family, value, *ci_cells(receipt),
                             pct(None if verdict is None else verdict.estimate), reference])  # fmt: skip
    return Table(
        "subgroup_differences",
        "Paired differences a − b per subgroup (points, 95% hierarchical-bootstrap CI)",
        [
            "comparison",
            "split",
            "subgroup",
            "value",
            "Δ exact receipt",
            "CI low",
            "CI high",
            "Δ revised verdict",
            "paper Δ receipt",
        ],  # fmt: skip
        rows,
        "Descriptive CIs, not adjusted for multiplicity; Holm applies to the pooled comparisons.",
    )


def shift(view: View) -> Table:
    """Per method, the locked test beside each shift split."""
    rows: list[list[Cell]] = []
    roles = ("direct_verdict", "direct_receipt", "rationale_receipt", "cube", "tfidf", "majority")
    for row in view.methods(roles, lambda e: any(s in e.info.splits for s in SHIFTS[1:])):
        if row.entry is None:
            rows.append([row.method, row.role, NOT_RUN, NOT_RUN, NOT_RUN, NOT_RUN])
            continue
        for split in SHIFTS:
            if split not in row.entry.info.splits:
                continue
            rows.append([row.method, row.role, split,
                         *(pct(view.metric(row.method, split, m))
                           for m in (REVISED_VERDICT_ACCURACY, RECEIPT_ACCURACY, PARSE_FAILURE_RATE))])  # fmt: skip
    return Table(
        "shift",
        "Distribution shift: held-out operators, wording and proof depth (%)",
        ["method", "role", "split", "revised verdict", "exact receipt", "parse failures"],
        rows,
        "shift_operator: held-out operators; shift_linguistic: a held-out template family; "
        "shift_depth: deeper proofs (logical stratum). Mean over each method's own seeds.",
    )
