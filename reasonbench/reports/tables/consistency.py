"""Consistency tables: paired consistency per control kind and stratum, the cube-only cell
agreement, permutation augmentation before/after, and the verdict–receipt separation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from reasonbench.analysis.metrics import (
    GOLD_CHANGE_RECEIPT_ACCURACY,
    RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS,
    REVISED_VERDICT_GAP,
)
from reasonbench.analysis.record import ConsistencyRate, Repair, SeedEntry
from reasonbench.controls import CONTROL_KINDS
from reasonbench.reports.lookup import LOCKED, Row
from reasonbench.reports.render import Table
from reasonbench.reports.tables.common import (
    NOT_RUN,
    Cell,
    References,
    View,
    paper,
    pct,
    seeds,
)

__all__ = [
    "AUGMENTATION_ROLES",
    "CONSISTENCY_ROLES",
    "NEAR_CONSTANT",
    "augmentation",
    "cell_agreement",
    "kind_label",
    "kinds",
    "near_constant",
    "near_constant_note",
    "ordered_kinds",
    "paired_consistency",
    "top_answer",
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
# The TF-IDF baselines' permutation consistency is 100 % by construction, whatever their answers:
# a bag of character n-grams is the same bag after the sources are reordered (the note says so,
# so that nobody reads it as robustness). Near-constant output is decided by NEAR_CONSTANT below.
ORDER_BLIND = {
    "tfidf": "sees a bag of character n-grams, which a reordering of the sources leaves unchanged",
    "tfidf_train_dev": "the same",
}
# A method whose most frequent answer is at least this share of its locked-test answers in a
# stratum agrees with itself on most pairs without reading them: its consistency there is marked
# (table and figure). The gold's most frequent answer is about a fifth of each stratum (the note
# prints the benchmark's own share), so half is far from anything a right answer key would do.
NEAR_CONSTANT = 0.5
POOLED = "pooled"
PERMUTATION = "permutation"


def kinds(view: View) -> list[str]:
    """The control kinds that occur in the report: the registered ones in registry order, then
    any other by name (a plug-in's kind this process has not registered keeps its column)."""
    seen = {
        kind
        for entry in view.report.methods.values()
        for s in entry.seeds.values()
        if s.consistency is not None
        for kind in s.consistency.pooled
    }
    return ordered_kinds(seen)


def ordered_kinds(seen: Iterable[str]) -> list[str]:
    """``seen`` (control kinds): the registered ones in registry order, then the others sorted;
    none is dropped."""
    found = set(seen)
    registered = [k for k in CONTROL_KINDS if k in found]
    return [*registered, *sorted(found - set(registered))]


def kind_label(kind: str) -> str:
    """What a table prints for a control kind: its registered label, or its name."""
    return CONTROL_KINDS.get(kind).label if kind in CONTROL_KINDS else kind


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
    return [*out, pct(top_answer(view, row.method, stratum))]


def top_answer(view: View, method: str, stratum: str) -> float | None:
    """The share of the method's locked-test answers that are its most frequent one (mean over
    its seeds), pooled or in one stratum."""

    def get(s: SeedEntry) -> float | None:
        return None if s.consistency is None else s.consistency.top_answer.get(stratum)

    return view.per_seed(method, get)


def near_constant(view: View, method: str, stratum: str) -> bool:
    share = top_answer(view, method, stratum)
    return share is not None and share >= NEAR_CONSTANT


def _labels(names: list[str]) -> list[str]:
    labels = [kind_label(k) for k in names]
    return [*labels, *(f"{label} bound" for label in labels), "top answer"]


def _rows_per_stratum(
    view: View,
    methods: Sequence[Row],
    names: list[str],
    refs: References,
    extra: Callable[[Row], list[Cell]] = lambda row: [],
) -> list[list[Cell]]:
    """A method's rows per stratum (pooled first) beside the paper's figure; for a role without
    predictions, "not run" rows for pooled and every stratum the paper gives a figure for, each
    with that figure. ``extra``: a row's cells before the paper's column."""
    rows: list[list[Cell]] = []
    for row in methods:
        if row.entry is None:
            given = paper(refs.figures, "consistency", row.role or "") or {}
            for stratum in [POOLED, *sorted(k for k in given if k != POOLED)]:
                reference = refs.get("consistency", row.role or "", stratum)
                rows.append([row.method, row.role, stratum, *[NOT_RUN] * (2 * len(names) + 1),
                             *extra(row), reference])  # fmt: skip
            continue
        for stratum in _strata(row):
            reference = refs.get("consistency", row.role or "", stratum)
            rows.append([row.method, row.role, stratum, *_cells(view, row, stratum, names),
                         *extra(row), reference])  # fmt: skip
    return rows


def _by_construction(rows: Sequence[Row]) -> str:
    """Why a TF-IDF baseline's permutation consistency says nothing about robustness."""
    said = [
        f"{row.method} {ORDER_BLIND[row.role]}"
        for row in rows
        if row.entry is not None and row.role in ORDER_BLIND
    ]
    if not said:
        return ""
    return (
        "Permutation consistency of the TF-IDF baselines is 100 % by construction, not "
        f"robustness: {'; '.join(said)}."
    )


def near_constant_note(view: View, rows: Sequence[Row]) -> str:
    """The rule, and every (method, stratum) it marks: consistency explained by one answer."""
    gold = view.report.gold_top_answer
    marked = []
    for row in rows:
        if row.entry is None:
            continue
        strata = [st for st in _strata(row) if near_constant(view, row.method, st)]
        if strata:
            shares = ", ".join(
                f"{st} {pct(top_answer(view, row.method, st)):.2f} %" for st in strata
            )
            marked.append(f"{row.method} ({shares})")
    shares = ", ".join(f"{name} {pct(v):.2f} %" for name, v in gold.items())
    reference = f"; the gold's most frequent answer is {shares} of the cases" if gold else ""
    rule = (
        "Top answer: the share of the method's locked-test answers (verdicts and receipt family; "
        "an unparsed output counts as one answer) that are its most frequent one"
        f"{reference}. Where it is {100 * NEAR_CONSTANT:.0f} % or more, the method gives one "
        "answer to most cases and agrees with itself on a pair without reading it: its "
        "consistency there is near-constant output, not robustness"
    )
    if not marked:
        return rule + " (no method here)."
    return f"{rule}: {'; '.join(marked)}."


def paired_consistency(view: View, figures: Mapping[str, Any]) -> Table:
    names = kinds(view)
    refs = References(figures)
    methods = view.methods(
        CONSISTENCY_ROLES, lambda e: any(s.consistency for s in e.seeds.values())
    )
    rows = _rows_per_stratum(view, methods, names, refs)
    notes = [
        "Relation: endpoints plus receipt family, the same for every target; a parse failure on "
        "a checkable pair violates it; — = nothing checkable for the target (docs/controls.md). "
        "Bound: implied lower bound on mean pairwise error, (1 − consistency) / 2. Pooled = "
        "every stratum together. Cube cells: cell_agreement.",
        near_constant_note(view, methods),
        _by_construction(methods),
        refs.note(),
    ]
    return Table(
        "paired_consistency",
        "Paired consistency per control and stratum, locked test (%)",
        ["method", "role", "stratum", *_labels(names), "paper (perm.)"],
        rows,
        " ".join(n for n in notes if n),
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
    labels = [kind_label(k) for k in names]
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


def _pairing(fix: Repair) -> str:
    """How a repair's seeds were resampled, as the table states it."""
    if fix.seeds_paired:
        return f"paired ({len(fix.seeds_after)})"
    return f"unpaired ({len(fix.seeds_after)} after, {len(fix.seeds_before)} before)"


def _repair_rows(view: View, names: list[str], refs: References) -> list[list[Cell]]:
    """One row per repair and stratum (pooled first): Δ in the repaired kind's column."""
    rows: list[list[Cell]] = []
    for fix in view.report.inference.repairs.values():
        label = f"repair: {fix.after} − {fix.before}"
        cells: list[Cell] = [None] * (2 * len(names) + 1)  # the kinds, their bounds, top answer
        if fix.status != "ok":
            rows.append([label, fix.name, POOLED, *cells, NOT_RUN, NOT_RUN, None,
                         refs.get("repairs", fix.name, POOLED)])  # fmt: skip
            continue
        strata = [(POOLED, fix.pooled), *fix.strata.items()]
        for stratum, ci in strata:
            delta = list(cells)
            if ci is not None and fix.kind in names:
                delta[names.index(fix.kind)] = pct(ci.estimate)
            rows.append([
                label, fix.name, stratum, *delta,
                pct(None if ci is None else ci.low), pct(None if ci is None else ci.high),
                _pairing(fix), refs.get("repairs", fix.name, stratum),
            ])  # fmt: skip
    return rows


def augmentation(view: View, figures: Mapping[str, Any]) -> Table:
    names = kinds(view)
    refs = References(figures)
    methods = view.methods(AUGMENTATION_ROLES, lambda e: e.info.data == "permaug")
    rows = _rows_per_stratum(view, methods, names, refs, lambda row: [None, None, seeds(row)])
    before = refs.text("augmentation", "error_bound_before")
    after = refs.text("augmentation", "error_bound_after")
    notes = [
        "The roles direct_receipt and cube are the runs before augmentation, permaug_direct and "
        "permaug_cube after; the inverse relation is not targeted by the augmentation. Repair "
        "rows: after − before of the repaired kind's consistency in points, with its 95% "
        "hierarchical-bootstrap CI (the locked units resampled once for both arms; seeds "
        "resampled together when both arms have the same seeds — paired — and otherwise each "
        "arm over its own seeds — unpaired); other kinds' columns do not apply (—). Cube − "
        "direct per stratum with CIs: subgroup_differences (permaug_cube_vs_direct). Paper: "
        f"implied error lower bound {before} % before, {after} % after.",
        refs.note(),
    ]
    return Table(
        "augmentation",
        "Permutation-augmented training: consistency before and after, per stratum (%)",
        [
            "method",
            "role",
            "stratum",
            *_labels(names),
            "Δ CI low",
            "Δ CI high",
            "seeds",
            "paper (perm.)",
        ],  # fmt: skip
        [*rows, *_repair_rows(view, names, refs)],
        " ".join(n for n in notes if n),
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
