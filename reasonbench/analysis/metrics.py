"""Aggregate scored predictions into the reported metrics (rates with empty support are None)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reasonbench.analysis.scoring import Scored
from reasonbench.controls.relations import consistent
from reasonbench.core.accounting import Outcome


def _mean(values: Sequence[bool | int | float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(rows: Sequence[Scored]) -> dict[str, Any]:
    """Co-primary outcomes, diagnostics and failure accounting over ``rows``."""
    accounted = [r for r in rows if r.outcome is not None]
    changes = [r for r in accounted if not r.gold.receipt.stable]
    stable = [r for r in accounted if r.gold.receipt.stable]
    eligible = [r for r in changes if r.endpoints_correct]
    cubes = [r for r in rows if r.cube_cells_correct is not None]

    def share(outcome: Outcome, pool: Sequence[Scored]) -> float | None:
        return _mean([r.outcome is outcome for r in pool])

    return {
        "n": len(rows),
        "parse_failure_rate": _mean([not r.record.parse_ok for r in rows]),
        "revised_verdict_accuracy": _mean([r.verdict_correct for r in rows]),
        "receipt_accuracy": _mean([bool(r.receipt_correct) for r in accounted]),
        "endpoint_accuracy": _mean([bool(r.endpoints_correct) for r in accounted]),
        "cube_cell_accuracy": (
            sum(r.cube_cells_correct or 0 for r in cubes)
            / sum(len(r.gold.cube.verdicts) for r in cubes)
            if cubes
            else None
        ),
        "cube_parsed_share": _mean([r.cube_cells_correct is not None for r in rows])
        if cubes
        else None,
        "drift_rate": share(Outcome.DRIFT, accounted),
        "inertia_rate": share(Outcome.INERTIA, accounted),
        "misattribution_rate": share(Outcome.MISATTRIBUTION, accounted),
        "drift_given_stable": share(Outcome.DRIFT, stable),
        "inertia_given_change": share(Outcome.INERTIA, changes),
        "misattribution_given_change": share(Outcome.MISATTRIBUTION, changes),
        "gold_change_receipt_accuracy": _mean([bool(r.receipt_correct) for r in changes]),
        "eligible_for_separation": len(eligible),
        "receipt_error_given_correct_endpoints": _mean([not r.receipt_correct for r in eligible]),
    }


SUBGROUPS: dict[str, Callable[[Scored], str]] = {
    "stratum": lambda r: r.gold.stratum,
    "min_receipt_size": lambda r: r.gold.subgroup_size,
    "ambiguity": lambda r: "ambiguous" if r.gold.receipt.ambiguous else "unambiguous",
}


def subgroups(rows: Sequence[Scored]) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, key in SUBGROUPS.items():
        groups: dict[str, list[Scored]] = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        out[name] = {value: summarize(groups[value]) for value in sorted(groups)}
    return out


def paired_consistency(
    parents: dict[str, Scored], controls: Sequence[Scored]
) -> dict[str, dict[str, Any]]:
    """Per control type: share of checkable pairs whose predictions satisfy the relation, and the
    implied lower bound on mean pairwise error (violation rate / 2)."""
    out: dict[str, dict[str, Any]] = {}
    by_kind: dict[str, list[bool | None]] = {}
    for c in controls:
        parent = parents.get(c.gold.parent_id or "")
        if parent is None or c.gold.control is None:
            continue
        by_kind.setdefault(c.gold.control, []).append(
            consistent(c.gold.control, parent.said, c.said, parent.gold.cube)
        )
    for kind in sorted(by_kind):
        values = by_kind[kind]
        checkable = [v for v in values if v is not None]
        rate = _mean(checkable)
        out[kind] = {
            "pairs": len(values),
            "checkable": len(checkable),
            "consistency": rate,
            "error_lower_bound": None if rate is None else (1 - rate) / 2,
        }
    return out
