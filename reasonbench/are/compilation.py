"""Compilation of a reflective state to quadratic forms over positions x in {-1, +1}^V (Lemma 1).

Every quantity the solver and the oversight rules need is a quadratic pseudo-Boolean function of
the position: the energy E, the violated weight of any subset of relations, and the override
Ov_s of a source. All are written ``c - 1/2 x'Wx - b'x`` (W symmetric, zero diagonal), so one
vectorised evaluator and one exact minimiser serve them all. The direct definitions (relation by
relation) are kept beside the compiled ones: the property tests check that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reasonbench.are.model import ReflectiveState, Relation

TOL = 1e-6
"""Energies (and weights) closer than this are equal: parameters are rubric-scale numbers, so
genuine differences are far larger, while float noise is far smaller."""

Vector = NDArray[np.float64]
Matrix = NDArray[np.float64]

# Lemma 1: per type, (beta_W, beta_1, beta_2, beta_0) with
# w * phi = w*beta_0 - beta_W*w*x_u*x_v - beta_1*w*x_u - beta_2*w*x_v.
BETA: dict[str, tuple[float, float, float, float]] = {
    "supp": (0.25, -0.25, 0.25, 0.25),
    "att": (-0.25, -0.25, -0.25, 0.25),
    "coh": (0.5, 0.0, 0.0, 0.5),
    "contra": (-0.5, 0.0, 0.0, 0.5),
}

VIOLATED: dict[str, Callable[[int, int], bool]] = {
    "supp": lambda xu, xv: xu == 1 and xv == -1,
    "att": lambda xu, xv: xu == 1 and xv == 1,
    "coh": lambda xu, xv: xu != xv,
    "contra": lambda xu, xv: xu == xv,
}


@dataclass(frozen=True, eq=False)
class Quadratic:
    """``f(x) = c - 1/2 x'Wx - b'x``; rows of ``X`` are positions for :meth:`values`."""

    W: Matrix
    b: Vector
    c: float

    def value(self, x: Vector) -> float:
        return float(self.c - 0.5 * x @ self.W @ x - self.b @ x)

    def values(self, X: Matrix) -> Vector:
        out: Vector = self.c - 0.5 * np.einsum("ij,ij->i", X @ self.W, X) - X @ self.b
        return out

    def fields(self, x: Vector) -> Vector:
        """Local fields h(x) = W x + b (W has a zero diagonal, so h_u ignores x_u)."""
        out: Vector = self.W @ x + self.b
        return out


def _add_relations(
    state: ReflectiveState, relations: Iterable[Relation], W: Matrix, b: Vector
) -> float:
    constant = 0.0
    index = state.index
    for r in relations:
        beta_w, beta_1, beta_2, beta_0 = BETA[r.type]
        u, v = index[r.source], index[r.target]
        W[u, v] += beta_w * r.weight
        W[v, u] += beta_w * r.weight
        b[u] += beta_1 * r.weight
        b[v] += beta_2 * r.weight
        constant += beta_0 * r.weight
    return constant


def violation_form(state: ReflectiveState, relations: Iterable[Relation]) -> Quadratic:
    """The violated weight of ``relations`` (a subset of the state's) as a quadratic form."""
    W, b = np.zeros((state.n, state.n)), np.zeros(state.n)
    return Quadratic(W, b, _add_relations(state, relations, W, b))


def energy_form(state: ReflectiveState) -> Quadratic:
    """E(x) = incoherence - faithfulness + systematicity, compiled exactly (Lemma 1)."""
    W, b = np.zeros((state.n, state.n)), np.zeros(state.n)
    constant = _add_relations(state, state.relations, W, b)
    for i, c in enumerate(state.claims):
        b[i] += c.stubbornness * c.anchor - c.systematicity / 2
        constant += c.systematicity / 2
    return Quadratic(W, b, constant)


def override_form(state: ReflectiveState, channel: str) -> Quadratic:
    """Ov_s(x): violated weight of relations asserted by s, plus kappa*|a0| of each claim of s
    whose status opposes its anchor ((1 - sgn(a0) x_u)/2 is 1 exactly then)."""
    form = violation_form(state, (r for r in state.relations if r.channel == channel))
    constant = form.c
    for i, c in enumerate(state.claims):
        if c.channel == channel and c.anchor != 0:
            constant += c.stubbornness * abs(c.anchor) / 2
            form.b[i] += c.stubbornness * c.anchor / 2
    return Quadratic(form.W, form.b, constant)


def violated(state: ReflectiveState, x: Vector) -> tuple[int, ...]:
    """Indices of the relations that position ``x`` violates (its accepted tensions)."""
    index = state.index
    return tuple(
        k
        for k, r in enumerate(state.relations)
        if VIOLATED[r.type](int(x[index[r.source]]), int(x[index[r.target]]))
    )


def direct_energy(state: ReflectiveState, x: Vector) -> float:
    """Definition 6 term by term: the reference the compiled form is tested against."""
    index = state.index
    total = 0.0
    for r in state.relations:
        if VIOLATED[r.type](int(x[index[r.source]]), int(x[index[r.target]])):
            total += r.weight
    for i, c in enumerate(state.claims):
        total += -c.stubbornness * c.anchor * x[i] + c.systematicity * (1 + x[i]) / 2
    return float(total)


def trusted_weight(state: ReflectiveState) -> float:
    """Total weight of relations not incident to an untrusted claim: the denominator of rho.

    Relations touching quarantined content (its own capped assertions and the harness's
    defensive attacks) are left out of the denominator, so that planted text cannot dilute the
    incoherence the oversight rule (O2) measures; violated ones still count in the numerator.
    """
    untrusted = {c.id for c in state.claims if c.channel == "untrusted"}
    return sum(
        r.weight for r in state.relations if r.source not in untrusted and r.target not in untrusted
    )


def rho(violated_weight: float, trusted: float) -> float:
    """rho from its parts: 0 when nothing is violated, +inf when only untrusted weight is."""
    if violated_weight <= TOL:
        return 0.0
    return violated_weight / trusted if trusted > 0 else float("inf")


def incoherence(state: ReflectiveState, x: Vector) -> float:
    """rho(x): violated weight over the trusted relation weight (see :func:`trusted_weight`)."""
    weight = sum(state.relations[k].weight for k in violated(state, x))
    return rho(weight, trusted_weight(state))
