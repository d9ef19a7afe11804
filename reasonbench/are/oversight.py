"""Oversight rules O1-O3 (Definition 13): when the decision goes to a human.

* (O1) fragility: Gamma_A < gamma_min (the solver is exact, so Gamma_A is always available);
* (O2) incoherence: rho > rho_max;
* (O3) override: Ov_s > theta_s for a protected source s.

rho and Ov_s are evaluated at their worst over all global equilibria (the solver reports the
maximum of each as an observable), so the rules never depend on which of several tied
equilibria was selected. gamma_min must be positive: Gamma_A = 0 means another consequential
decision is exactly as good, a tie that only a human may break.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.are.compilation import (
    TOL,
    Quadratic,
    override_form,
    rho,
    trusted_weight,
    violation_form,
)
from reasonbench.are.model import CHANNELS, ReflectiveState
from reasonbench.are.solver import Solution, solve
from reasonbench.are.validate import choice, finite_or_null, limit, need, number, record

MIN_GAMMA = 1e-3
PROTECTABLE = tuple(c for c in CHANNELS if c != "untrusted")


def _threshold(value: Any, where: str) -> float:
    """theta_s as :func:`limit` reads it from JSON: a positive number, or +inf for none."""
    if isinstance(value, float) and value == math.inf:
        return value
    return limit(value, where) if isinstance(value, int | float) else number(value, where)


@dataclass(frozen=True)
class Thresholds:
    """gamma_min > 0, rho_max in [0, 1], and theta_s > 0 (or inf) per protected source (sorted)."""

    gamma_min: float = 0.5
    rho_max: float = 0.35
    protected: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        where = "oversight thresholds"
        gamma_min = number(self.gamma_min, f"{where}.gamma_min")
        need(gamma_min >= MIN_GAMMA, where, f"gamma_min must be >= {MIN_GAMMA} (ties escalate)")
        number(self.rho_max, f"{where}.rho_max", 0.0, 1.0)
        for s, theta in self.protected:
            choice(s, f"{where}.protected", PROTECTABLE)
            _threshold(theta, f"{where}.protected.{s}")
        names = [s for s, _ in self.protected]
        need(names == sorted(set(names)), where, "protected sources must be sorted and unique")

    def to_json(self) -> dict[str, Any]:
        return {
            "gamma_min": self.gamma_min,
            "rho_max": self.rho_max,
            "protected": {s: finite_or_null(t) for s, t in self.protected},
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "oversight") -> Thresholds:
        raw = record(data, where, ("gamma_min", "rho_max", "protected"), ("gamma_min", "rho_max"))
        protected = raw.get("protected") or {}
        need(isinstance(protected, Mapping), f"{where}.protected", "expected a mapping")
        pairs = sorted((str(s), limit(t, f"{where}.protected.{s}")) for s, t in protected.items())
        return cls(
            number(raw["gamma_min"], f"{where}.gamma_min"),
            number(raw["rho_max"], f"{where}.rho_max"),
            tuple(pairs),
        )


def observables(state: ReflectiveState, thresholds: Thresholds) -> list[Quadratic]:
    """What the rules read, as quadratic forms: the violated weight, then Ov_s per source."""
    return [violation_form(state, state.relations)] + [
        override_form(state, s) for s, _ in thresholds.protected
    ]


@dataclass(frozen=True)
class Review:
    """The rules that fired ("O1", "O2", "O3:<source>") and the quantities they read."""

    fired: tuple[str, ...]
    gamma: float
    rho: float
    overrides: tuple[tuple[str, float], ...]


def review(state: ReflectiveState, solution: Solution, thresholds: Thresholds) -> Review:
    """Apply O1-O3 to a solution solved with :func:`observables` of these thresholds."""
    return review_weighted(trusted_weight(state), solution, thresholds)


def review_weighted(trusted: float, solution: Solution, thresholds: Thresholds) -> Review:
    """:func:`review` given the state's trusted relation weight (rho's denominator)."""
    need(
        len(solution.worst) == 1 + len(thresholds.protected),
        "oversight",
        "the solution was not solved with the observables of these thresholds",
    )
    incoherence = rho(solution.worst[0], trusted)
    overrides = tuple(
        (s, v) for (s, _), v in zip(thresholds.protected, solution.worst[1:], strict=True)
    )
    # A quantity within TOL of its threshold meets it: float noise never flips a rule.
    fired = []
    if solution.gamma < thresholds.gamma_min - TOL:
        fired.append("O1")
    if incoherence > thresholds.rho_max + TOL:
        fired.append("O2")
    for (s, theta), (_, value) in zip(thresholds.protected, overrides, strict=True):
        if value > theta + TOL:
            fired.append(f"O3:{s}")
    return Review(tuple(fired), solution.gamma, incoherence, overrides)


def oversee(
    state: ReflectiveState, thresholds: Thresholds, method: str = "auto"
) -> tuple[Solution, Review]:
    """Solve exactly with the rules' observables, then review: the whole escalation decision."""
    solution = solve(state, observables(state, thresholds), method=method)
    return solution, review(state, solution, thresholds)
