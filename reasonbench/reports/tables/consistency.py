"""Consistency tables: paired consistency per control kind and stratum, the cube-only cell
agreement, permutation augmentation before/after, and the verdict–receipt separation."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reasonbench.analysis.metrics import (
    GOLD_CHANGE_RECEIPT_ACCURACY,
    RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS,
    REVISED_VERDICT_GAP,
)
from reasonbench.analysis.record import ConsistencyRate, SeedEntry
from reasonbench.controls import CONTROL_KINDS
from reasonbench.reports.lookup import LOCKED, Row
from reasonbench.reports.render import Table
from reasonbench.reports.tables.common import NOT_RUN, Cell, View, paper, pct

__all__ = [
    "AUGMENTATION_ROLES",
    "CONSISTENCY_ROLES",
    "augmentation",
    "cell_agreement",
    "kinds",
    "paired_consistency",
    "verdict_receipt_separation",
]

CONSISTENCY_ROLES = (
    "direct_verdict",
    "direct_receipt",
    "rationale_receipt",
    "cube",
    "tfidf",
    "majority",
)
AUGMENTATION_ROLES = ("direct_receipt", "permaug_direct", "cube", "permaug_cube")
POOLED = "pooled"
PERMUTATION = "permutation"


def kinds(view: View) -> list[str]:
    """The registered control kinds that occur in the report, in registry order."""
    seen = {
        kind
        for entry in view.report.methods.values()
        for s in entry.seeds.values()
        if s.consistency is not None
        for kind in s.consistency.pooled
    }
    return [k for k in CONTROL_KINDS if k in seen]


def _strata(row: Row) -> list[str]:
    seeds = row.entry.seeds.values() if row.entry else ()
    found = {st for s in seeds if s.consistency for st in s.consistency.strata}
    return [POOLED, *sorted(found)]


def _rate(stratum: str, kind: str) -> Callable[[SeedEntry], ConsistencyRate | None]:
    def get(s: SeedEntry) -> ConsistencyRate | None:
        if s.consistency is None:
            return None
        table = s.consistency.pooled if stratum == POOLED else s.consistency.strata.get(stratum, {})
        return table.get(kind)

    return get


def _value(stratum: str, kind: str, attr: str) -> Callable[[SeedEntry], float | None]:
    get = _rate(stratum, kind)

    def value(s: SeedEntry) -> float | None:
        rate = get(s)
        return None if rate is None else getattr(rate, attr)

    return value


def _cell_value(kind: str, attr: str) -> Callable[[SeedEntry], float | None]:
    def value(s: SeedEntry) -> float | None:
        agreement = None if s.consistency is None else s.consistency.cells.get(kind)
        return None if agreement is None else getattr(agreement, attr)

    return value


def _cells(view: View, row: Row, stratum: str, names: list[str]) -> list[Cell]:
    out: list[Cell] = []
    for attr in ("consistency", "error_lower_bound"):
        out += [pct(view.per_seed(row.method, _value(stratum, kind, attr))) for kind in names]
    return out


def _labels(names: list[str]) -> list[str]:
    labels = [CONTROL_KINDS.get(k).label for k in names]
    return [*labels, *(f"{label} bound" for label in labels)]


def _rows_per_stratum(
    view: View, methods: Sequence[Row], names: list[str], figures: Mapping[str, Any]
) -> list[list[Cell]]:
    """A method's rows per stratum (pooled first) beside the paper's figure; one "not run" row
    for a role without predictions."""
    rows: list[list[Cell]] = []
    for row in methods:
        if row.entry is None:
            reference = paper(figures, "consistency", row.role or "", POOLED)
            rows.append([row.method, row.role, POOLED, *[NOT_RUN] * (2 * len(names)), reference])
            continue
        for stratum in _strata(row):
            reference = paper(figures, "consistency", row.role or "", stratum)
            rows.append(
                [row.method, row.role, stratum, *_cells(view, row, stratum, names), reference]
            )
    return rows


def paired_consistency(view: View, figures: Mapping[str, Any]) -> Table:
    names = kinds(view)
    rows = _rows_per_stratum(
        view,
        view.methods(CONSISTENCY_ROLES, lambda e: any(s.consistency for s in e.seeds.values())),
        names,
        figures,
    )
    return Table(
        "paired_consistency",
        "Paired consistency per control and stratum, locked test (%)",
        ["method", "role", "stratum", *_labels(names), "paper (perm.)"],
        rows,
        "Relation: endpoints plus receipt family, the same for every target; a parse failure on "
        "a checkable pair violates it; — = nothing checkable for the target (docs/controls.md). "
        "Bound: implied lower bound on mean pairwise error, (1 − consistency) / 2. Pooled = "
        "every stratum together. Cube cells: cell_agreement.",
    )


def cell_agreement(view: View) -> Table:
    """Cube targets only: whether the cells of each pair satisfy the kind's cell relation."""
    names = kinds(view)
    rows: list[list[Cell]] = []
    for method, entry in sorted(view.report.methods.items()):
        cells = [
            s.consistency.cells
            for s in entry.seeds.values()
            if s.consistency and s.consistency.cells
        ]
        if not cells:
            continue
        row: list[Cell] = [method, entry.info.target]
        for attr in ("all_cells", "cells"):
            row += [pct(view.per_seed(method, _cell_value(kind, attr))) for kind in names]
        rows.append(row)
    labels = [CONTROL_KINDS.get(k).label for k in names]
    return Table(
        "cell_agreement",
        "Cube predictions: cell-level agreement on the locked controls (%)",
        [
            "method",
            "target",
            *(f"{lab}: all cells" for lab in labels),
            *(f"{lab}: cells" for lab in labels),
        ],
        rows,
        "A diagnostic, not part of the consistency relation: all cells = pairs whose 2^k cells all "
        "satisfy the kind's cell relation; cells = share of cells that do.",
    )


def augmentation(view: View, figures: Mapping[str, Any]) -> Table:
    names = kinds(view)
    rows = _rows_per_stratum(
        view, view.methods(AUGMENTATION_ROLES, lambda e: e.info.data == "permaug"), names, figures
    )
    before = paper(figures, "augmentation", "error_bound_before")
    after = paper(figures, "augmentation", "error_bound_after")
    return Table(
        "augmentation",
        "Permutation-augmented training: consistency before and after, per stratum (%)",
        ["method", "role", "stratum", *_labels(names), "paper (perm.)"],
        rows,
        "The roles direct_receipt and cube are the runs before augmentation, permaug_direct and "
        "permaug_cube after; the inverse relation is not targeted by the augmentation. Cube − direct per stratum with CIs: subgroup_differences "
        f"(permaug_cube_vs_direct). Paper: implied error lower bound {before}% before, {after}% after.",
    )


def verdict_receipt_separation(view: View, figures: Mapping[str, Any]) -> Table:
    """Pooled over seed-example observations of the locked test."""
    rows: list[list[Cell]] = []
    roles = ("direct_receipt", "rationale_receipt", "cube", "tfidf", "majority")
    for row in view.methods(roles, View.accounts):
        ref = paper(figures, "separation", row.role or "") or {}
        if row.entry is None:
            rows.append([row.method, row.role, NOT_RUN, NOT_RUN, ref.get(GOLD_CHANGE_RECEIPT_ACCURACY), NOT_RUN,
                         ref.get(REVISED_VERDICT_GAP), NOT_RUN, NOT_RUN, ref.get(RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS)])  # fmt: skip
            continue
        receipt = view.pooled(row.method, LOCKED, GOLD_CHANGE_RECEIPT_ACCURACY)
        gap = view.pooled(row.method, LOCKED, REVISED_VERDICT_GAP)
        error = view.pooled(row.method, LOCKED, RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS)
        rows.append([
            row.method, row.role,
            None if receipt is None else int(receipt.denominator),
            pct(None if receipt is None else receipt.value), ref.get(GOLD_CHANGE_RECEIPT_ACCURACY),
            pct(None if gap is None else gap.value), ref.get(REVISED_VERDICT_GAP),
            None if error is None else int(error.denominator),
            pct(None if error is None else error.value), ref.get(RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS),
        ])  # fmt: skip
    return Table(
        "verdict_receipt_separation",
        "Verdict–receipt separation, locked test, pooled over seed-example observations (%)",
        [
            "method",
            "role",
            "gold changes (obs.)",
            "receipt acc. on gold changes",
            "paper",
            "revised-verdict gap",
            "paper",
            "both endpoints right (obs.)",
            "receipt error | both endpoints right",
            "paper",
        ],  # fmt: skip
        rows,
        "Observations are (seed, example) pairs. Revised-verdict gap: revised-verdict accuracy "
        "minus exact receipt accuracy on gold changes, in points.",
    )
