"""The monotone assumption, and the check that catches an oracle contradicting it.

A user may declare an adjudicator *monotone* for a version change (docs/semantics.md,
"Monotone certification"). Two strengths:

* **sufficiency-monotone** (no order given): every superset of a sufficient set is sufficient,
  so every subset of an insufficient set is insufficient. This is exactly what the monotone
  certifier relies on; with two labels it is the same as order-monotone.
* **order-monotone in a verdict order** ``l_1 < l_2 < ... < l_m`` (a total order on the labels):
  along inclusion the verdict never moves against the direction of the change, i.e.
  ``S ⊆ T ⇒ V(S) ≤ V(T)`` when ``V(∅) < V(all)``, ``S ⊆ T ⇒ V(S) ≥ V(T)`` when
  ``V(∅) > V(all)`` (the direction is read from the endpoints of each case). Every cell then lies
  between the two endpoint verdicts, and order-monotone implies sufficiency-monotone.

A check sees every answer the certifier receives and reports the first pair ``S ⊂ T`` whose
verdicts break the declared assumption. With ``refer`` as a middle label (``deny < refer <
approve``) a ``refer`` cell below a ``deny`` cell, or an ``approve`` cell in a ``deny -> refer``
case, is caught even though no sufficient/insufficient pair disagrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.core.sources import cell_key

__all__ = ["MonotoneCheck", "Violation", "validate_order"]


def validate_order(order: Sequence[str]) -> tuple[str, ...]:
    """A verdict order as a tuple; ``ValueError`` when it is empty or repeats a label."""
    labels = tuple(order)
    if len(labels) < 2 or not all(isinstance(x, str) and x for x in labels):
        raise ValueError(f"a verdict order lists at least two non-empty labels, got {list(order)}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"a verdict order must not repeat a label, got {list(labels)}")
    return labels


@dataclass(frozen=True)
class Violation:
    """A witness that the monotone assumption is false: ``lower ⊂ upper`` out of order."""

    lower: int
    upper: int
    lower_verdict: str
    upper_verdict: str

    def describe(self, sources: tuple[str, ...]) -> str:
        low = cell_key(self.lower, sources) or "∅"
        up = cell_key(self.upper, sources) or "∅"
        return (
            f"V({low}) = {self.lower_verdict!r} but its superset V({up}) = "
            f"{self.upper_verdict!r}, against the declared monotone order"
        )

    def to_json(self, sources: tuple[str, ...]) -> dict[str, Any]:
        return {
            "lower": cell_key(self.lower, sources),
            "upper": cell_key(self.upper, sources),
            "lower_verdict": self.lower_verdict,
            "upper_verdict": self.upper_verdict,
        }


class MonotoneCheck:
    """Compare each answered cell with every cell answered before it.

    Each verdict is mapped to a *key* that the assumption says never decreases along inclusion:
    ``1``/``0`` for sufficient/insufficient, or the verdict's position in the order signed by the
    direction of the change. A pair ``S ⊂ T`` with ``key(S) > key(T)`` is a violation.
    """

    def __init__(self, old: str, new: str, order: Sequence[str] | None = None) -> None:
        self.new = new
        self.rank: dict[str, int] | None = None
        self.sign = 1
        if order is not None:
            labels = validate_order(order)
            self.rank = {label: i for i, label in enumerate(labels)}
            self._rank_of(old)
            self._rank_of(new)
            self.sign = 1 if self.rank[old] <= self.rank[new] else -1
        self._seen: list[tuple[int, int, str]] = []

    def _rank_of(self, verdict: str) -> int:
        assert self.rank is not None
        try:
            return self.rank[verdict]
        except KeyError:
            raise ValueError(
                f"verdict {verdict!r} is not in the declared order {list(self.rank)}"
            ) from None

    def key(self, verdict: str) -> int:
        if self.rank is None:
            return int(verdict == self.new)
        return self.sign * self._rank_of(verdict)

    def answer(self, mask: int, verdict: str) -> Violation | None:
        """Record one answer; the first pair it forms against the assumption, if any."""
        key = self.key(verdict)
        for other, other_key, other_verdict in self._seen:
            if other & mask == other and other_key > key:
                return Violation(other, mask, other_verdict, verdict)
            if other & mask == mask and key > other_key:
                return Violation(mask, other, verdict, other_verdict)
        self._seen.append((mask, key, verdict))
        return None
