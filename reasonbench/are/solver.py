"""The exact global solver: a global reflective equilibrium, its decision and the margin Gamma_A.

``solve`` compiles the state, removes what provably cannot vary (:mod:`.reduction`), and searches
the rest exactly: vectorised enumeration while at most ``enumeration.LIMIT`` claims remain after
closed-form elimination, the MILP beyond (or either on request). Both backends are exact, so
the decision, the energy, Gamma_A and the worst case of any requested observable over the
global minimisers are the same whichever runs; only the selected minimiser may differ when
several tie.

Observables are quadratic forms (e.g. an override Ov_s, the violated weight behind rho): their
maximum over *all* global equilibria is reported, so an oversight rule evaluated on it never
depends on which of several tied equilibria a backend happened to select.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from reasonbench.are.compilation import Quadratic, Vector, energy_form
from reasonbench.are.enumeration import enumerable, enumerate_search
from reasonbench.are.milp import milp_search
from reasonbench.are.model import ReflectiveState
from reasonbench.are.reduction import Frame, Reduced, Search, reduce_problem

METHODS = ("auto", "enumeration", "milp")


@dataclass(frozen=True)
class Solution:
    """A global reflective equilibrium x* with what the certificate and the oversight need."""

    x: tuple[int, ...]  # statuses in claim order
    energy: float
    decision: tuple[str, ...]  # Dc(x*): accepted consequential actions, in claim order
    gamma: float  # Gamma_A(x*); math.inf when no feasible position decides otherwise
    unique: bool | None  # x* is the only global minimiser (None: not checked)
    worst: tuple[float, ...]  # max of each requested observable over all global minimisers
    method: str
    free: int  # claims searched after the exact reduction

    def vector(self) -> Vector:
        return np.array(self.x, dtype=float)

    def accepted(self, state: ReflectiveState) -> tuple[str, ...]:
        return tuple(c.id for c, s in zip(state.claims, self.x, strict=True) if s > 0)

    def to_json(self) -> dict[str, object]:
        return {
            "x": list(self.x),
            "energy": self.energy,
            "decision": list(self.decision),
            "gamma": None if math.isinf(self.gamma) else self.gamma,
            "unique": self.unique,
            "worst": list(self.worst),
            "method": self.method,
            "free": self.free,
        }


@dataclass(frozen=True, eq=False)
class Equilibrium:
    """A solved state before any observable is read: solve once, observe many.

    Enumeration keeps every global minimiser, so the worst case of any observable is a maximum
    over those rows; the MILP backend answers an observable with further programs."""

    state: Frame
    form: Quadratic
    problem: Reduced
    search: Search
    method: str
    presolve: bool
    check_unique: bool
    observed: tuple[Quadratic, ...] = ()  # the observables a MILP search already maximised

    def solution(self, observables: Sequence[Quadratic] = ()) -> Solution:
        search, state = self.search, self.state
        x = self._selected
        if observables and search.minimisers is not None:
            if len(search.minimisers) == 1:
                worst = tuple(o.value(x) for o in observables)
            else:
                rows = np.tile(self.problem.values, (len(search.minimisers), 1))
                rows[:, self.problem.free] = search.minimisers
                worst = tuple(float(o.values(rows).max()) for o in observables)
        elif observables and tuple(observables) == self.observed:
            worst = search.worst
        elif observables:
            problem = reduce_problem(state, self.form, observables, self.presolve)
            worst = milp_search(problem, self.check_unique).worst
        else:
            worst = ()
        statuses, energy, decision = self._decided
        return Solution(
            statuses,
            energy,
            decision,
            search.gamma,
            search.unique,
            worst,
            self.method,
            self.problem.n,
        )

    @cached_property
    def _selected(self) -> Vector:
        return self.problem.expand(self.search.x)

    @cached_property
    def _decided(self) -> tuple[tuple[int, ...], float, tuple[str, ...]]:
        """Statuses, energy and consequential decision of the selected minimiser."""
        x, state = self._selected, self.state
        statuses = tuple(int(s) for s in x)
        decision = tuple(a for a in _in_claim_order(state) if statuses[state.index[a]] > 0)
        return statuses, self.form.value(x), decision


def equilibrium(
    state: ReflectiveState | Frame,
    method: str = "auto",
    presolve: bool = True,
    check_unique: bool = True,
    energy: Quadratic | None = None,
    observables: Sequence[Quadratic] = (),
) -> Equilibrium:
    """The exact global equilibrium of ``state``, its decision margin and (enumeration) every
    global minimiser; read observables with :meth:`Equilibrium.solution`. ``observables``
    only matter to the MILP backend, which maximises them in the same search."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if energy is None:
        if not isinstance(state, ReflectiveState):
            raise TypeError("a frame without a ReflectiveState needs its energy form")
        energy = energy_form(state)
    form = energy
    problem = reduce_problem(state, form, (), presolve)
    if method == "auto":
        method = "enumeration" if enumerable(problem) else "milp"
    if method == "enumeration" or problem.n == 0:
        search = enumerate_search(problem)
        return Equilibrium(state, form, problem, search, "enumeration", presolve, check_unique)
    problem = reduce_problem(state, form, observables, presolve)
    search = milp_search(problem, check_unique)
    return Equilibrium(
        state, form, problem, search, method, presolve, check_unique, tuple(observables)
    )


def solve(
    state: ReflectiveState,
    observables: Sequence[Quadratic] = (),
    method: str = "auto",
    presolve: bool = True,
    check_unique: bool = True,
    energy: Quadratic | None = None,
) -> Solution:
    """The exact global equilibrium of ``state`` (see the module docstring)."""
    found = equilibrium(state, method, presolve, check_unique, energy, observables)
    return found.solution(observables)


def _in_claim_order(state: Frame) -> tuple[str, ...]:
    members = set(state.consequential)
    return tuple(a for a in state.actions if a in members)


def feasible(state: ReflectiveState, x: Sequence[float] | Vector) -> bool:
    """x respects H (prescribed statuses) and F (no prohibited pair both accepted)."""
    index = state.index
    if any(x[index[u]] != s for u, s in state.fixed):
        return False
    return not any(x[index[h]] > 0 and x[index[a]] > 0 for h, a in state.prohibitions)


def consequential_decision(state: ReflectiveState, x: Sequence[float] | Vector) -> tuple[str, ...]:
    return tuple(a for a in _in_claim_order(state) if x[state.index[a]] > 0)
