"""The paper's metrics (spec §2), registered in report order; their names are the constants the
reports import.

Denominators: the co-primary outcomes count every example (a parse failure is wrong); the
accounting shares (drift, inertia, misattribution) count every example of a target that states
an old verdict, and their ``_given_`` forms the gold-stable or gold-change examples; the
verdict–receipt separation counts gold changes whose predicted endpoints are both right.
"""

from __future__ import annotations

from collections.abc import Callable

from reasonbench.analysis.metrics.base import METRICS, Metric, rate
from reasonbench.analysis.scoring import Carried, Scored
from reasonbench.core.accounting import Outcome

__all__ = [
    "CUBE_CELL_ACCURACY",
    "DRIFT_GIVEN_STABLE",
    "DRIFT_RATE",
    "ENDPOINT_ACCURACY",
    "GOLD_CHANGE_RECEIPT_ACCURACY",
    "GOLD_CHANGE_VERDICT_ACCURACY",
    "INERTIA_GIVEN_CHANGE",
    "INERTIA_RATE",
    "MISATTRIBUTION_GIVEN_CHANGE",
    "MISATTRIBUTION_RATE",
    "PARSE_FAILURE_RATE",
    "RECEIPT_ACCURACY",
    "RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS",
    "REVISED_VERDICT_ACCURACY",
    "REVISED_VERDICT_GAP",
]

PARSE_FAILURE_RATE = "parse_failure_rate"
REVISED_VERDICT_ACCURACY = "revised_verdict_accuracy"
RECEIPT_ACCURACY = "receipt_accuracy"
ENDPOINT_ACCURACY = "endpoint_accuracy"
CUBE_CELL_ACCURACY = "cube_cell_accuracy"
DRIFT_RATE = "drift_rate"
INERTIA_RATE = "inertia_rate"
MISATTRIBUTION_RATE = "misattribution_rate"
DRIFT_GIVEN_STABLE = "drift_given_stable"
INERTIA_GIVEN_CHANGE = "inertia_given_change"
MISATTRIBUTION_GIVEN_CHANGE = "misattribution_given_change"
GOLD_CHANGE_VERDICT_ACCURACY = "gold_change_verdict_accuracy"
GOLD_CHANGE_RECEIPT_ACCURACY = "gold_change_receipt_accuracy"
REVISED_VERDICT_GAP = "revised_verdict_gap"
RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS = "receipt_error_given_correct_endpoints"


def _accounts(fields: Carried) -> bool:
    return not fields.verdict_only


def _cube(fields: Carried) -> bool:
    return fields.cube


def _stable(r: Scored) -> bool:
    return r.gold.receipt.stable


def _change(r: Scored) -> bool:
    return not r.gold.receipt.stable


def _separation(r: Scored) -> bool:
    return _change(r) and bool(r.endpoints_correct)


def _is(outcome: Outcome) -> Callable[[Scored], bool]:
    return lambda r: r.outcome is outcome


def _cells(r: Scored) -> tuple[float, float]:
    return (float(r.cube_cells_correct or 0), float(len(r.gold.cube.verdicts)))


def _gap(r: Scored) -> tuple[float, float] | None:
    # revised verdict right minus receipt right, per gold change: the mean is the gap in points
    if not _change(r):
        return None
    return (float(r.verdict_correct) - float(bool(r.receipt_correct)), 1.0)


for _metric in (
    Metric(PARSE_FAILURE_RATE, "share of outputs the frozen parser rejected",
           rate(lambda r: not r.record.parse_ok)),
    Metric(REVISED_VERDICT_ACCURACY, "revised verdict right", rate(lambda r: r.verdict_correct),
           co_primary=True),
    Metric(RECEIPT_ACCURACY, "exact receipt family right", rate(lambda r: r.receipt_correct),
           _accounts, co_primary=True),
    Metric(ENDPOINT_ACCURACY, "old and revised verdict both right",
           rate(lambda r: r.endpoints_correct), _accounts),
    Metric(CUBE_CELL_ACCURACY, "cube cells right (of 2^k per example)", _cells, _cube),
    Metric(DRIFT_RATE, "drift: predicted change on a gold-stable case, of all",
           rate(_is(Outcome.DRIFT)), _accounts),
    Metric(INERTIA_RATE, "inertia: predicted stable on a gold change, of all",
           rate(_is(Outcome.INERTIA)), _accounts),
    Metric(MISATTRIBUTION_RATE, "misattribution: change predicted, wrong receipt, of all",
           rate(_is(Outcome.MISATTRIBUTION)), _accounts),
    Metric(DRIFT_GIVEN_STABLE, "drift among gold-stable cases",
           rate(_is(Outcome.DRIFT), _stable), _accounts),
    Metric(INERTIA_GIVEN_CHANGE, "inertia among gold changes",
           rate(_is(Outcome.INERTIA), _change), _accounts),
    Metric(MISATTRIBUTION_GIVEN_CHANGE, "misattribution among gold changes",
           rate(_is(Outcome.MISATTRIBUTION), _change), _accounts),
    Metric(GOLD_CHANGE_VERDICT_ACCURACY, "revised verdict right on gold changes",
           rate(lambda r: r.verdict_correct, _change)),
    Metric(GOLD_CHANGE_RECEIPT_ACCURACY, "exact receipt right on gold changes",
           rate(lambda r: r.receipt_correct, _change), _accounts),
    Metric(REVISED_VERDICT_GAP, "revised-verdict minus receipt accuracy on gold changes",
           _gap, _accounts),
    Metric(RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS,
           "receipt wrong on gold changes with both endpoints right",
           rate(lambda r: not r.receipt_correct, _separation), _accounts),
):  # fmt: skip
    METRICS.register(_metric.name, _metric)
