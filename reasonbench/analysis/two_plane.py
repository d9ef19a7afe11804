"""The two-plane audit (issue 18): a learned model *proposes* receipts, trusted execution
*certifies* them.

Every predicted change of a method is routed by its calibrated confidence c (the per-source
isotonic map fitted on the seed's calibration split, ``analysis/calibration.py``) at a
threshold τ:

* **certify** when c < τ, or when c is ``None`` (its source has no map: nothing vouches for it,
  so it goes to trusted execution); the certified receipt is the executed one, right by
  construction;
* **accept** otherwise: the predicted receipt stands, uncertified.

Gold changes the model predicted stable (or did not parse) are never routed: the audit only sees
predicted changes, so they are *missed* at every τ. Over the grid (:data:`GRID`: "accept all",
τ = 0, 0.05, …, 1, "certify all") the certified set only grows, so executions never fall.

This module is the semantics on per-case facts (:class:`Case`); ``analysis/trusted.py`` executes
the stored benchmark states and builds the cases of a method's records. No wall time here: the
results are deterministic (``scripts/bench_two_plane.py`` measures seconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reasonbench.analysis.selective import Decision, reason_debt

__all__ = [
    "ACCEPT_ALL",
    "CERTIFY_ALL",
    "GRID",
    "THRESHOLDS",
    "Case",
    "Certified",
    "Route",
    "TwoPlaneError",
    "TwoPlanePoint",
    "two_plane_points",
]

ACCEPT_ALL, CERTIFY_ALL = "accept all", "certify all"
THRESHOLDS: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(21))


class TwoPlaneError(ValueError):
    """Trusted execution disagrees with the stored gold, or a case has no stored state."""


@dataclass(frozen=True)
class Route:
    """One routing rule: a threshold τ, or one of the two ends (``threshold`` None)."""

    label: str
    threshold: float | None = None

    def __post_init__(self) -> None:
        if (self.threshold is None) != (self.label in (ACCEPT_ALL, CERTIFY_ALL)):
            raise ValueError(
                f"route {self.label!r}: a threshold route needs a threshold, an end has none"
            )

    def certifies(self, calibrated: float | None) -> bool:
        """Certify below the threshold, and whatever has no calibrated confidence."""
        if self.label == ACCEPT_ALL:
            return False
        if self.threshold is None or calibrated is None:
            return True  # "certify all", or nothing vouches for the proposal
        return calibrated < self.threshold


GRID: tuple[Route, ...] = (
    Route(ACCEPT_ALL),
    *(Route(f"{t:.2f}", t) for t in THRESHOLDS),
    Route(CERTIFY_ALL),
)  # in this order the certified set only grows


@dataclass(frozen=True)
class Certified:
    """A case certified by trusted execution: adjudicator executions spent (the two endpoints
    plus the adaptive certifier's interior queries) and the exhaustive cost, 2^k."""

    example_id: str
    executions: int
    exhaustive: int


@dataclass(frozen=True)
class Case:
    """One predicted change: its calibrated confidence, how its account scores against gold, and
    what certifying it costs."""

    calibrated: float | None
    decision: Decision
    certified: Certified


@dataclass(frozen=True)
class TwoPlanePoint:
    """The two-plane system at one route, over one seed's evaluated examples (docs/analysis.md,
    "The two-plane audit", defines every field)."""

    route: str
    threshold: float | None
    predicted_changes: int
    uncalibrated: int  # predicted changes without a calibrated confidence (certified at any τ)
    certified: int
    accepted: int
    executions: int  # adjudicator executions of the certified cases
    exhaustive: int  # Σ 2^k over the certified cases
    execution_share: float | None  # executions / exhaustive; None when nothing is certified
    reason_debt: float | None  # wrong accounts / accepted; None when nothing is accepted
    gold_changes: int
    gold_changes_correct: int  # certified gold changes + accepted ones with the exact receipt
    gold_change_recall: float | None  # gold_changes_correct / gold_changes
    missed: int  # gold changes predicted stable or unparsed: never routed, never right


def _point(route: Route, cases: Sequence[Case], gold_changes: int, missed: int) -> TwoPlanePoint:
    certified = [c for c in cases if route.certifies(c.calibrated)]
    accepted = [c.decision for c in cases if not route.certifies(c.calibrated)]
    executions = sum(c.certified.executions for c in certified)
    exhaustive = sum(c.certified.exhaustive for c in certified)
    correct = sum(c.decision.gold_changed for c in certified) + sum(
        d.gold_changed and d.account_correct for d in accepted
    )
    return TwoPlanePoint(
        route=route.label,
        threshold=route.threshold,
        predicted_changes=len(cases),
        uncalibrated=sum(c.calibrated is None for c in cases),
        certified=len(certified),
        accepted=len(accepted),
        executions=executions,
        exhaustive=exhaustive,
        execution_share=executions / exhaustive if exhaustive else None,
        reason_debt=reason_debt(accepted),
        gold_changes=gold_changes,
        gold_changes_correct=correct,
        gold_change_recall=correct / gold_changes if gold_changes else None,
        missed=missed,
    )


def two_plane_points(
    cases: Sequence[Case], gold_changes: int, grid: Sequence[Route] = GRID
) -> list[TwoPlanePoint]:
    """One point per route of ``grid``. ``cases``: every predicted change of the evaluated
    examples; ``gold_changes``: the gold changes among *all* evaluated examples (predicted change
    or not), so the ones predicted stable count as missed."""
    predicted_gold = sum(c.decision.gold_changed for c in cases)
    if predicted_gold > gold_changes:
        raise ValueError(
            f"{predicted_gold} predicted changes are gold changes, more than the "
            f"{gold_changes} gold changes given"
        )
    return [_point(r, cases, gold_changes, gold_changes - predicted_gold) for r in grid]
