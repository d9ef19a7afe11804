"""Failure accounting of predicted transitions against gold receipts (spec §2).

Per example, exactly one outcome:

* ``unparsed``        – an endpoint verdict could not be read from the output;
* ``no_change``       – gold stable, predicted stable;
* ``drift``           – gold stable, predicted change (false-positive change);
* ``inertia``         – gold change, predicted stable (false-negative change);
* ``misattribution``  – gold change, predicted change, wrong receipt family;
* ``attributed``      – gold change, predicted change, exact receipt family.

Receipt error *given both endpoints correct* is reported over gold changes whose predicted old
and new verdicts both equal gold: the verdict–receipt separation (right labels, wrong account).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from reasonbench.core.answer import Answer
from reasonbench.core.receipt import Receipt


class Outcome(str, Enum):
    UNPARSED = "unparsed"
    NO_CHANGE = "no_change"
    DRIFT = "drift"
    INERTIA = "inertia"
    MISATTRIBUTION = "misattribution"
    ATTRIBUTED = "attributed"


def classify(gold: Receipt, pred: Answer) -> Outcome:
    """The one accounting outcome of ``pred`` against ``gold``."""
    changed = pred.changed
    if changed is None:
        return Outcome.UNPARSED
    if gold.stable:
        return Outcome.DRIFT if changed else Outcome.NO_CHANGE
    if not changed:
        return Outcome.INERTIA
    return Outcome.ATTRIBUTED if pred.sets == gold.sets else Outcome.MISATTRIBUTION


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


@dataclass(frozen=True)
class AccountingSummary:
    """Counts and rates over a batch; a rate with an empty denominator is ``None``, not 0."""

    n: int
    outcomes: dict[str, int] = field(default_factory=dict)
    gold_changes: int = 0
    revised_verdict_correct: int = 0
    endpoints_correct: int = 0
    receipt_correct: int = 0
    eligible_for_separation: int = 0
    receipt_wrong_given_endpoints: int = 0

    def rate(self, outcome: Outcome) -> float | None:
        return _rate(self.outcomes.get(outcome.value, 0), self.n)

    @property
    def drift_given_stable(self) -> float | None:
        return _rate(self.outcomes.get(Outcome.DRIFT.value, 0), self.n - self.gold_changes)

    @property
    def inertia_given_change(self) -> float | None:
        return _rate(self.outcomes.get(Outcome.INERTIA.value, 0), self.gold_changes)

    @property
    def misattribution_given_change(self) -> float | None:
        return _rate(self.outcomes.get(Outcome.MISATTRIBUTION.value, 0), self.gold_changes)

    @property
    def receipt_error_given_correct_endpoints(self) -> float | None:
        return _rate(self.receipt_wrong_given_endpoints, self.eligible_for_separation)

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "outcomes": {o.value: self.outcomes.get(o.value, 0) for o in Outcome},
            "gold_changes": self.gold_changes,
            "revised_verdict_accuracy": _rate(self.revised_verdict_correct, self.n),
            "endpoint_accuracy": _rate(self.endpoints_correct, self.n),
            "receipt_accuracy": _rate(self.receipt_correct, self.n),
            "drift_rate": self.rate(Outcome.DRIFT),
            "inertia_rate": self.rate(Outcome.INERTIA),
            "misattribution_rate": self.rate(Outcome.MISATTRIBUTION),
            "unparsed_rate": self.rate(Outcome.UNPARSED),
            "drift_given_stable": self.drift_given_stable,
            "inertia_given_change": self.inertia_given_change,
            "misattribution_given_change": self.misattribution_given_change,
            "eligible_for_separation": self.eligible_for_separation,
            "receipt_error_given_correct_endpoints": self.receipt_error_given_correct_endpoints,
        }


def account(pairs: Iterable[tuple[Receipt, Answer]]) -> AccountingSummary:
    """Failure accounting over (gold, prediction) pairs."""
    outcomes: Counter[str] = Counter()
    n = changes = revised = endpoints = receipts = eligible = wrong = 0
    for gold, pred in pairs:
        n += 1
        outcomes[classify(gold, pred).value] += 1
        changes += not gold.stable
        revised += pred.new == gold.new
        both = pred.old == gold.old and pred.new == gold.new
        endpoints += both
        receipts += pred.sets == gold.sets
        if both and not gold.stable:
            eligible += 1
            wrong += pred.sets != gold.sets
    return AccountingSummary(
        n, dict(outcomes), changes, revised, endpoints, receipts, eligible, wrong
    )
