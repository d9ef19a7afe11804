"""Method tables: surface baselines, the primary comparison, the Qwen3-0.6B replication, and
every registered metric of every method."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.analysis.metrics import (
    PARSE_FAILURE_RATE,
    RECEIPT_ACCURACY,
    REVISED_VERDICT_ACCURACY,
)
from reasonbench.reports.lookup import LOCKED
from reasonbench.reports.render import Table
from reasonbench.reports.tables.common import (
    NOT_RUN,
    Cell,
    View,
    ci_cells,
    identity,
    paper,
    pct,
    seeds,
)

__all__ = [
    "PRIMARY_ROLES",
    "REPLICATION_ROLES",
    "all_metrics",
    "primary_comparison",
    "replication",
    "surface_diagnostics",
]

PRIMARY_ROLES = ("direct_verdict", "direct_receipt", "rationale_receipt", "cube")
REPLICATION_ROLES = tuple(f"replication_{r}" for r in PRIMARY_ROLES)
HEADER = ["method", "role", "target", "seeds", "revised verdict", "exact receipt", "CI low",
          "CI high", "parse failures", "paper receipt"]  # fmt: skip


def surface_diagnostics(view: View, figures: Mapping[str, Any]) -> Table:
    rows: list[list[Cell]] = []
    for row in view.methods(("majority", "tfidf"), applies=lambda e: False):
        p = paper(figures, "surface", row.role or "") or {}
        ours: list[Cell] = [NOT_RUN, NOT_RUN]
        if row.entry is not None:
            ours = [
                pct(view.metric(row.method, LOCKED, m))
                for m in (REVISED_VERDICT_ACCURACY, RECEIPT_ACCURACY)
            ]
        rows.append(
            [row.method, ours[0], p.get(REVISED_VERDICT_ACCURACY), ours[1], p.get(RECEIPT_ACCURACY)]
        )
    return Table(
        "surface_diagnostics",
        "Surface diagnostics on the locked test (%)",
        ["method", "revised verdict", "paper", "exact receipt", "paper"],
        rows,
    )


def _method_rows(
    view: View, roles: Sequence[str], figures: Mapping[str, Any], extras: bool
) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    applies = view.has_split(LOCKED) if extras else (lambda e: False)
    for row in view.methods(roles, applies):
        reference = paper(figures, "primary", row.role or "", RECEIPT_ACCURACY)
        if row.entry is None:
            rows.append([*identity(row), NOT_RUN, NOT_RUN, None, None, None, NOT_RUN, reference])
            continue
        verdict = view.interval(row.method, REVISED_VERDICT_ACCURACY)
        receipt = ci_cells(view.interval(row.method, RECEIPT_ACCURACY))
        failures = pct(view.metric(row.method, LOCKED, PARSE_FAILURE_RATE))
        rows.append([*identity(row), seeds(row), pct(None if verdict is None else verdict.estimate),
                     *receipt, failures, reference])  # fmt: skip
    return rows


def _comparison_rows(
    view: View, family: str, figures: Mapping[str, Any]
) -> tuple[list[list[Cell]], list[str]]:
    rows: list[list[Cell]] = []
    notes = []
    for comp in view.comparisons(family):
        label = f"{comp.name}: {comp.a} − {comp.b}"
        reference = paper(figures, "comparisons", comp.name, "estimate")
        if comp.status != "ok":
            rows.append([label, None, None, None, NOT_RUN, NOT_RUN, None, None, None, reference])
            continue
        verdict = comp.outcomes.get(REVISED_VERDICT_ACCURACY)
        receipt = comp.outcomes.get(RECEIPT_ACCURACY)
        rows.append([label, None, None, None, pct(None if verdict is None else verdict.estimate),
                     *ci_cells(receipt), None, reference])  # fmt: skip
        ps = ", ".join(f"{o.replace('_', ' ')} p = {e.p_value:.4f}, Holm p = {e.p_holm:.4f}"
                       for o, e in comp.outcomes.items())  # fmt: skip
        notes.append(f"{comp.name} (Holm family {family!r}): {ps}.")
    return rows, notes


def primary_comparison(view: View, figures: Mapping[str, Any]) -> Table:
    rows = _method_rows(view, PRIMARY_ROLES, figures, extras=True)
    comparisons, notes = _comparison_rows(view, "primary", figures)
    p = paper(figures, "comparisons", "cube_vs_direct_receipt") or {}
    note = " ".join(
        [
            "Methods without a paper role are listed after the roles.",
            "Comparison rows: a − b in points (95% hierarchical-bootstrap CI of the receipt difference).",
            *notes,
            f"Paper: cube − direct = {p.get('estimate')} [{p.get('low')}, {p.get('high')}], Holm p = {p.get('p_holm')}.",
        ]
    )
    return Table(
        "primary_comparison",
        "Primary comparison on the locked test (%, exact receipt with 95% CI)",
        HEADER,
        [*rows, *comparisons],
        note,
    )


def replication(view: View, figures: Mapping[str, Any]) -> Table:
    rows = _method_rows(view, REPLICATION_ROLES, figures, extras=False)
    comparisons, notes = _comparison_rows(view, "replication", figures)
    return Table(
        "replication",
        "Qwen3-0.6B replication on the locked test (%, exact receipt with 95% CI)",
        HEADER,
        [*rows, *comparisons],
        " ".join(["The cube − direct comparison is its own Holm family.", *notes]),
    )


def all_metrics(view: View) -> Table:
    """Every registered metric (a column each) of every analyzed method, locked test."""
    names = list(view.report.metrics)
    rows: list[list[Cell]] = []
    for method in sorted(view.report.methods):
        entry = view.report.methods[method]
        rows.append([method, entry.info.target, len(entry.seeds),
                     *(pct(view.metric(method, LOCKED, n)) for n in names)])  # fmt: skip
    descriptions = "; ".join(f"{n}: {view.report.metrics[n].description}" for n in names)
    return Table(
        "all_metrics",
        "Every metric on the locked test, mean over each method's seeds (%)",
        ["method", "target", "seeds", *names],
        rows,
        f"— = undefined or not applicable to the target. {descriptions}.",
    )
