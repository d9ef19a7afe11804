"""Selective evaluation: reason debt at fitted accepted-change coverages (spec §2, ADR-054).

Per example of one method and seed: whether the prediction is a change, whether its account is
right (gold change + exact receipt; a drift or misattribution is wrong), whether gold changed,
and a confidence tagged with its source. Thresholds are fitted on ``calibration`` for target
coverages of the *predicted changes* and applied unchanged to ``test_locked``.

Rules from the confidence-provenance ADR: thresholds are fitted per confidence source; a corpus
mixing sources is refused unless ``allow_mixed=True``; reason debt is ``None`` (never 0) when
nothing is accepted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

TARGET_COVERAGES: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(2, 11))


__all__ = [
    "TARGET_COVERAGES",
    "Decision",
    "MixedSourceError",
    "SelectiveResult",
    "apply_threshold",
    "fit_threshold",
    "reason_debt",
    "selective_curve",
    "single_source",
]


class MixedSourceError(ValueError):
    """Confidences from more than one source were about to be fitted as one."""


@dataclass(frozen=True)
class Decision:
    predicted_change: bool
    account_correct: bool
    gold_changed: bool
    confidence: float | None
    source: str


def single_source(rows: Sequence[Decision], allow_mixed: bool = False) -> str:
    sources = sorted({r.source for r in rows})
    if len(sources) > 1 and not allow_mixed:
        raise MixedSourceError(
            f"refusing to fit one threshold across confidence sources {sources}; "
            "fit per source, or pass allow_mixed=True to override"
        )
    return "+".join(sources)


def fit_threshold(rows: Sequence[Decision], coverage: float) -> float | None:
    """Smallest confidence τ accepting about ``coverage`` of the predicted changes (conf ≥ τ)."""
    scores = sorted(
        (r.confidence for r in rows if r.predicted_change and r.confidence is not None),
        reverse=True,
    )
    if not scores:
        return None
    k = max(1, math.ceil(coverage * len(scores) - 1e-9))
    return scores[min(k, len(scores)) - 1]


def reason_debt(accepted: Sequence[Decision]) -> float | None:
    """Reason debt of what was accepted: wrong accounts (drift or misattribution) / accepted;
    ``None``, never 0, when nothing is accepted. The one definition (selective evaluation and the
    two-plane audit both use it)."""
    if not accepted:
        return None
    return sum(not r.account_correct for r in accepted) / len(accepted)


@dataclass(frozen=True)
class SelectiveResult:
    target_coverage: float
    threshold: float | None
    coverage: float | None  # accepted / predicted changes
    reason_debt: float | None  # wrong accounts / accepted; None when nothing is accepted
    gold_change_recall: float | None  # correctly accepted gold changes / gold changes
    accepted: int

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "target_coverage": self.target_coverage,
            "threshold": self.threshold,
            "coverage": self.coverage,
            "reason_debt": self.reason_debt,
            "gold_change_recall": self.gold_change_recall,
            "accepted": self.accepted,
        }


def apply_threshold(
    rows: Sequence[Decision], threshold: float | None, target: float
) -> SelectiveResult:
    changes = [r for r in rows if r.predicted_change]
    accepted = [
        r
        for r in changes
        if threshold is not None and r.confidence is not None and r.confidence >= threshold
    ]
    gold = sum(r.gold_changed for r in rows)
    right = sum(r.account_correct and r.gold_changed for r in accepted)
    return SelectiveResult(
        target_coverage=target,
        threshold=threshold,
        coverage=len(accepted) / len(changes) if changes else None,
        reason_debt=reason_debt(accepted),
        gold_change_recall=right / gold if gold else None,
        accepted=len(accepted),
    )


def selective_curve(
    calibration: Sequence[Decision],
    test: Sequence[Decision],
    targets: Sequence[float] = TARGET_COVERAGES,
    allow_mixed: bool = False,
) -> list[SelectiveResult]:
    """Fit on ``calibration``, apply unchanged to ``test``, one row per target coverage."""
    single_source([*calibration, *test], allow_mixed)
    return [apply_threshold(test, fit_threshold(calibration, t), t) for t in targets]
