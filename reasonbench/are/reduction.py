"""Exact problem reduction before search: fix H, forced prohibitions and lexically prior claims.

Three kinds of claims leave the search, each without changing the set of global equilibria, the
decision margin or any worst case over global equilibria:

* the non-negotiable claims H, at their prescribed statuses;
* an action a with (h, a) in F and h fixed accepted: every feasible position rejects it;
* **lexical priority** (Prop. 1), iterated: a free claim u with |b_u| > sum_v |W_uv| (fields
  folded from claims already fixed) has x_u = sgn(b_u) in every local equilibrium. Only claims
  that are neither consequential actions nor in a prohibition are fixed this way: a flip of such
  a claim is always feasible and never changes the decision, so even the constrained minimiser
  behind Gamma_A (which need not be a global equilibrium) is locally optimal in u.

Evidence with evidence-level stubbornness is typically fixed here, which is why case-family
states with 25 claims search over about ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from reasonbench.are.compilation import TOL, Matrix, Quadratic, Vector
from reasonbench.are.model import ReflectiveState

Index = NDArray[np.int64]


class Frame(Protocol):
    """What the solver reads of a state besides its energy: claim ids and the fixed structure
    (a :class:`ReflectiveState`, or :class:`reasonbench.are.layout.Numbers`)."""

    @property
    def n(self) -> int: ...
    @property
    def index(self) -> dict[str, int]: ...
    @property
    def fixed(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def prohibitions(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def consequential(self) -> tuple[str, ...]: ...
    @property
    def actions(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, eq=False)
class Reduced:
    """The search problem over the free claims, in reduced indices."""

    free: Index  # state indices of the free claims, increasing
    values: Vector  # full-length statuses: +/-1 where fixed, 0 where free
    energy: Quadratic
    observables: tuple[Quadratic, ...]
    pairs: tuple[tuple[int, int], ...]  # prohibitions among free claims (reduced indices)
    consequential: tuple[int, ...]  # free consequential actions (reduced indices)

    @property
    def n(self) -> int:
        return len(self.free)

    def expand(self, x: Sequence[float] | Vector) -> Vector:
        full = self.values.copy()
        full[self.free] = np.asarray(x, dtype=float)
        return full


def restrict(form: Quadratic, free: Index, values: Vector) -> Quadratic:
    """``form`` with the fixed claims' statuses substituted (a quadratic over ``free``)."""
    fixed = np.flatnonzero(values)
    v = values[fixed]
    rows = form.W[free]
    W = rows[:, free]
    b = form.b[free] + rows[:, fixed] @ v
    c = form.c - 0.5 * v @ form.W[fixed][:, fixed] @ v - form.b[fixed] @ v
    return Quadratic(W, b, float(c))


def reduce_problem(
    state: Frame,
    energy: Quadratic,
    observables: Sequence[Quadratic] = (),
    presolve: bool = True,
) -> Reduced:
    index = state.index
    values = np.zeros(state.n)
    for u, status in state.fixed:
        values[index[u]] = status
    for h, a in state.prohibitions:
        if values[index[h]] == 1:
            values[index[a]] = -1  # a prohibition whose trigger is non-negotiable binds always
    live = [
        (index[h], index[a])
        for h, a in state.prohibitions
        if values[index[h]] == 0 and values[index[a]] == 0
    ]
    consequential = {index[a] for a in state.consequential}
    if presolve:
        _lexical(energy, values, consequential | {i for pair in live for i in pair})
    free = np.flatnonzero(values == 0)
    position = {int(u): k for k, u in enumerate(free)}
    return Reduced(
        free,
        values,
        restrict(energy, free, values),
        tuple(restrict(o, free, values) for o in observables),
        tuple((position[h], position[a]) for h, a in live),
        tuple(position[a] for a in sorted(consequential) if a in position),
    )


def _lexical(energy: Quadratic, values: Vector, keep: set[int]) -> None:
    """Fix dominated claims in place, repeating while fixing one makes another dominated."""
    W, b = energy.W, energy.b
    absw = np.abs(W)
    open_ = values == 0
    open_[list(keep)] = False
    while open_.any():
        bias = b + W @ values  # fields of the fixed claims folded in
        spread = absw @ (values == 0)  # W_uu = 0, so u itself adds nothing
        dominated = open_ & (np.abs(bias) > spread + TOL)
        if not dominated.any():
            return
        values[dominated] = np.sign(bias[dominated])
        open_ &= ~dominated


def lexically_prior(state: ReflectiveState, energy: Quadratic) -> dict[str, int]:
    """Prop. 1 as stated (one round, no folding): claims outside H and F with
    |b_u| > sum_v |W_uv|, and the status sgn(b_u) they take in every equilibrium."""
    fixed = {u for u, _ in state.fixed}
    in_f = {c for pair in state.prohibitions for c in pair}
    spread = np.abs(energy.W).sum(axis=1)
    return {
        c.id: int(np.sign(energy.b[i]))
        for i, c in enumerate(state.claims)
        if c.id not in fixed and c.id not in in_f and abs(energy.b[i]) > spread[i]
    }


@dataclass(frozen=True, eq=False)
class Search:
    """What an exact backend returns for a :class:`Reduced` problem (reduced indices)."""

    x: Vector  # the selected global minimiser
    energy: float
    gamma: float  # decision margin Gamma_A; +inf when no feasible position decides otherwise
    unique: bool | None  # no other position within TOL of the minimum (None: not checked)
    worst: tuple[float, ...]  # max of each observable over all global minimisers
    minimisers: Matrix | None = None  # every global minimiser as a row (enumeration only)
