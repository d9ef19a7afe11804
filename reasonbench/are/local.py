"""Local reflective equilibria: margins, the equilibrium test and best-response dynamics.

A feasible x is a local RE when every claim free to change (outside H, and whose flip stays
feasible) has margin mu_u = x_u h_u(x) >= 0 (Definition 8). Best response repeatedly flips the
free claim with the most negative margin (ties: the first in claim order); each flip lowers the
energy by exactly 2|h_u| (Lemma 2), so it stops, at a local RE (Theorem 1(ii)). It is the
approximate branch: it never yields Gamma_A, which only the exact solver can certify.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from reasonbench.are.compilation import TOL, Quadratic, Vector, energy_form
from reasonbench.are.model import ReflectiveState
from reasonbench.are.solver import feasible


def margins(form: Quadratic, x: Vector) -> Vector:
    """mu_u = x_u h_u(x) for every claim (in H too, as the certificate reports them)."""
    out: Vector = x * form.fields(x)
    return out


def movable(state: ReflectiveState, x: Vector) -> np.ndarray:
    """Claims whose single flip is allowed: outside H and keeping every prohibition."""
    index = state.index
    ok = np.ones(state.n, dtype=bool)
    for u, _ in state.fixed:
        ok[index[u]] = False
    for h, a in state.prohibitions:
        i, j = index[h], index[a]
        if x[i] < 0 and x[j] > 0:
            ok[i] = False  # accepting the trigger would put a prohibited action in force
        if x[j] < 0 and x[i] > 0:
            ok[j] = False  # taking the action is prohibited while its trigger is accepted
    return ok


def is_local_equilibrium(state: ReflectiveState, x: Vector, form: Quadratic | None = None) -> bool:
    if not feasible(state, x):
        return False
    mu = margins(energy_form(state) if form is None else form, x)
    return bool(np.all(mu[movable(state, x)] >= -TOL))


def feasible_start(state: ReflectiveState, x: Vector | None = None) -> Vector:
    """``x`` (default: reject everything) repaired to feasibility: H imposed, then every action
    of a prohibition whose trigger is accepted rejected (enough, since H never forces an
    action on)."""
    y = -np.ones(state.n) if x is None else np.array(x, dtype=float)
    index = state.index
    for u, s in state.fixed:
        y[index[u]] = s
    for h, a in state.prohibitions:
        if y[index[h]] > 0:
            y[index[a]] = -1.0
    return y


@dataclass(frozen=True)
class Dynamics:
    """Where best response stopped, its energy, and the flips it made (claim ids, in order)."""

    x: tuple[int, ...]
    energy: float
    flips: tuple[str, ...]


def best_response(
    state: ReflectiveState, start: Vector | None = None, form: Quadratic | None = None
) -> Dynamics:
    form = energy_form(state) if form is None else form
    x = feasible_start(state, start)
    flips: list[str] = []
    while True:
        mu = margins(form, x)
        mu[~movable(state, x)] = np.inf
        u = int(np.argmin(mu))  # argmin returns the first of equal values: claim order
        if mu[u] >= -TOL:
            return Dynamics(tuple(int(s) for s in x), form.value(x), tuple(flips))
        x[u] = -x[u]
        flips.append(state.claims[u].id)


def best_response_restarts(state: ReflectiveState, rng: random.Random, restarts: int) -> Dynamics:
    """The lowest-energy local RE over ``restarts`` random feasible starts (first wins ties)."""
    form = energy_form(state)
    best: Dynamics | None = None
    for _ in range(max(1, restarts)):
        start = np.array([rng.choice((-1.0, 1.0)) for _ in range(state.n)])
        found = best_response(state, start, form)
        if best is None or found.energy < best.energy - TOL:
            best = found
    assert best is not None
    return best
