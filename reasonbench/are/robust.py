"""Threshold margins: how far an oversight review sits from every threshold it reads.

A verdict that O1-O3 decide is a trustworthy gold label only when it does not hinge on a float:
not on the comparison tolerance (``TOL``), not on a rounding of a threshold, and not on which
of two defensible readings of rho's denominator is taken. For one solved state,
:func:`threshold_margins` gives the signed distance of each quantity from its threshold
(positive: the rule does not fire):

* ``gamma``: Gamma_A - gamma_min (O1);
* ``rho``: rho_max - rho, rho over the trusted weight (the denominator O2 uses, docs/are.md);
* ``rho_total``: rho_max - rho', rho' over the weight of *all* relations (the paper's reading);
* ``override:<s>``: theta_s - Ov_s for each protected source with a finite theta_s (O3).

rho, rho' and Ov_s are worst cases over all global equilibria, as O2 and O3 read them.
:func:`certified` asks every margin to keep ``delta(theta) = max(RELATIVE * theta, FLOOR)`` and
the two readings of rho to agree on whether O2 fires. Why these numbers: docs/are.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reasonbench.are.compilation import rho, trusted_weight
from reasonbench.are.model import ReflectiveState
from reasonbench.are.oversight import Thresholds
from reasonbench.are.solver import Solution

__all__ = [
    "FLOOR",
    "RELATIVE",
    "Margin",
    "certified",
    "delta",
    "threshold_margins",
    "total_weight",
    "weighted_margins",
]

RELATIVE = 0.05
"""A margin must keep 5 % of its threshold..."""
FLOOR = 0.01
"""...and never less than 0.01 (a threshold near 0 would otherwise ask for no margin)."""


def delta(threshold: float) -> float:
    """The margin a quantity must keep from ``threshold``."""
    return max(RELATIVE * threshold, FLOOR)


@dataclass(frozen=True)
class Margin:
    """One quantity against one threshold; ``signed`` > 0 means the rule does not fire."""

    name: str
    threshold: float
    value: float
    signed: float

    @property
    def delta(self) -> float:
        return delta(self.threshold)

    @property
    def kept(self) -> bool:
        return abs(self.signed) >= self.delta

    @property
    def fires(self) -> bool:
        return self.signed < 0

    def to_json(self) -> dict[str, object]:
        def finite(v: float) -> float | str:
            return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")

        return {
            "name": self.name,
            "threshold": self.threshold,
            "value": finite(self.value),
            "signed": finite(self.signed),
            "delta": self.delta,
        }


def total_weight(state: ReflectiveState) -> float:
    """The paper's denominator of rho: the weight of every relation."""
    return sum(r.weight for r in state.relations)


def threshold_margins(
    state: ReflectiveState, solution: Solution, thresholds: Thresholds
) -> tuple[Margin, ...]:
    """The margins of ``solution`` (solved with ``oversight.observables(state, thresholds)``)."""
    return weighted_margins(trusted_weight(state), total_weight(state), solution, thresholds)


def weighted_margins(
    trusted: float, total: float, solution: Solution, thresholds: Thresholds
) -> tuple[Margin, ...]:
    """:func:`threshold_margins` given both denominators of rho (trusted and total weight)."""
    if len(solution.worst) != 1 + len(thresholds.protected):
        raise ValueError("the solution was not solved with the observables of these thresholds")
    violated = solution.worst[0]
    rho_trusted, rho_total = rho(violated, trusted), rho(violated, total)
    out = [
        Margin(
            "gamma", thresholds.gamma_min, solution.gamma, solution.gamma - thresholds.gamma_min
        ),
        Margin("rho", thresholds.rho_max, rho_trusted, thresholds.rho_max - rho_trusted),
        Margin("rho_total", thresholds.rho_max, rho_total, thresholds.rho_max - rho_total),
    ]
    for (source, theta), value in zip(thresholds.protected, solution.worst[1:], strict=True):
        if math.isfinite(theta):
            out.append(Margin(f"override:{source}", theta, value, theta - value))
    return tuple(out)


def certified(margins: Sequence[Margin], both_readings: bool = True) -> bool:
    """Every margin keeps its delta, and both readings of rho agree on O2.

    ``both_readings=False`` leaves the paper's reading out: the cells of a quarantine control,
    whose planted relations dilute only that reading by design (docs/are.md)."""
    if not both_readings:
        return all(m.kept for m in margins if m.name != "rho_total")
    by_name = {m.name: m for m in margins}
    agree = by_name["rho"].fires == by_name["rho_total"].fires
    return agree and all(m.kept for m in margins)
