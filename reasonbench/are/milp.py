"""Exact search as a mixed-integer linear program (SciPy's HiGHS), for states beyond enumeration.

With z = (1 + x)/2 in {0, 1} and q_uv standing for z_u z_v (program (19) of the paper), every
quadratic form becomes linear in (z, q). For the energy alone only the McCormick inequalities on
the side the objective pushes against are needed (q <= z_u, z_v when W_uv > 0; q >= z_u + z_v - 1
when W_uv < 0); problems with another objective (worst observables) use all four, which force
q = z_u z_v at every integral z. Prohibitions are z_h + z_a <= 1; Gamma_A adds cut (20), "some
consequential action changes status"; uniqueness adds the same cut over every free claim.

Every reported energy is recomputed from the returned position with the compiled form, so the
enumeration and MILP backends report identical numbers for identical positions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_array

from reasonbench.are.compilation import TOL, Quadratic, Vector
from reasonbench.are.reduction import Reduced, Search

Pairs = list[tuple[int, int]]
Row = tuple[dict[int, float], float, float]  # sparse coefficients over (z, q), lower, upper


def _pairs(forms: Sequence[Quadratic]) -> Pairs:
    mask = np.zeros_like(forms[0].W, dtype=bool)
    for form in forms:
        mask |= form.W != 0
    u, v = np.nonzero(np.triu(mask, 1))
    return list(zip(u.tolist(), v.tolist(), strict=True))


def _linear(form: Quadratic, pairs: Pairs) -> tuple[Vector, float]:
    """Coefficients over (z, q) and the constant of ``form`` (x = 2z - 1, x_u x_v = 4q - 2z_u
    - 2z_v + 1); ``pairs`` must hold every pair with a non-zero coupling."""
    n = len(form.b)
    coef = np.zeros(n + len(pairs))
    coef[:n] = -2 * form.b
    constant = form.c + form.b.sum()
    for k, (u, v) in enumerate(pairs):
        w = form.W[u, v]
        coef[n + k] = -4 * w
        coef[u] += 2 * w
        coef[v] += 2 * w
        constant -= w
    return coef, float(constant)


def _mccormick(n: int, pairs: Pairs, signs: Vector | None) -> list[Row]:
    """Linearisation rows; ``signs`` (the coupling of each pair) keeps only the needed side."""
    rows: list[Row] = []
    for k, (u, v) in enumerate(pairs):
        q = n + k
        if signs is None or signs[k] > 0:
            rows += [({q: 1.0, u: -1.0}, -np.inf, 0.0), ({q: 1.0, v: -1.0}, -np.inf, 0.0)]
        if signs is None or signs[k] < 0:
            rows.append(({q: 1.0, u: -1.0, v: -1.0}, -1.0, np.inf))
    return rows


def _changes(x: Vector, members: Sequence[int]) -> Row:
    """Cut (20): at least one of ``members`` takes the status opposite to ``x``."""
    coef = {i: (1.0 if x[i] < 0 else -1.0) for i in members}
    return coef, 1.0 - float(sum(1 for i in members if x[i] > 0)), np.inf


def _run(objective: Vector, n: int, rows: list[Row]) -> Vector | None:
    """Minimise; the binary part rounded to a position, or ``None`` when infeasible."""
    integrality = np.zeros(len(objective))
    integrality[:n] = 1
    constraints = []
    if rows:
        r = [i for i, (coef, _, _) in enumerate(rows) for _ in coef]
        c = [j for coef, _, _ in rows for j in coef]
        data = [a for coef, _, _ in rows for a in coef.values()]
        A = coo_array((data, (r, c)), shape=(len(rows), len(objective))).tocsr()
        constraints = [LinearConstraint(A, [lo for _, lo, _ in rows], [hi for _, _, hi in rows])]
    result = milp(
        objective,
        integrality=integrality,
        bounds=Bounds(0, 1),
        constraints=constraints,
        options={"mip_rel_gap": 0.0},
    )
    if result.status == 2:
        return None
    if result.status != 0 or result.x is None:
        raise RuntimeError(f"MILP solve failed: {result.message}")
    out: Vector = np.where(result.x[:n] > 0.5, 1.0, -1.0)
    return out


def milp_search(problem: Reduced, check_unique: bool = True) -> Search:
    """Global minimiser and Gamma_A; with ``check_unique`` (or observables) also uniqueness and
    the worst observables over all global minimisers (further programs, only when needed)."""
    n, energy = problem.n, problem.energy
    pairs = _pairs([energy])
    objective, _ = _linear(energy, pairs)
    signs = np.array([energy.W[u, v] for u, v in pairs])
    base = _mccormick(n, pairs, signs) + [
        ({h: 1.0, a: 1.0}, -np.inf, 1.0) for h, a in problem.pairs
    ]
    x = _run(objective, n, base)
    if x is None:  # cannot happen: rejecting every action is always feasible
        raise RuntimeError("MILP reports an infeasible reflective state")
    best = energy.value(x)
    gamma = np.inf
    if problem.consequential:
        alt = _run(objective, n, [*base, _changes(x, problem.consequential)])
        if alt is not None:
            gamma = max(0.0, energy.value(alt) - best)
    unique: bool | None = None
    if check_unique or problem.observables:
        other = _run(objective, n, [*base, _changes(x, range(n))]) if n else None
        unique = other is None or energy.value(other) > best + TOL
    worst = tuple(o.value(x) for o in problem.observables)
    if problem.observables and not unique:
        worst = tuple(_worst(problem, o, best) for o in problem.observables)
    return Search(x, best, 0.0 if gamma < TOL else float(gamma), unique, worst)


def _worst(problem: Reduced, form: Quadratic, best: float) -> float:
    """max ``form`` over positions with energy within TOL of the minimum (exact linearisation)."""
    n = problem.n
    pairs = _pairs([problem.energy, form])
    e_coef, e_const = _linear(problem.energy, pairs)
    f_coef, _ = _linear(form, pairs)
    level = (dict(enumerate(e_coef.tolist())), -np.inf, best + TOL - e_const)
    rows = _mccormick(n, pairs, None) + [({h: 1.0, a: 1.0}, -np.inf, 1.0) for h, a in problem.pairs]
    x = _run(-f_coef, n, [*rows, level])
    if x is None or problem.energy.value(x) > best + TOL:
        raise RuntimeError("MILP lost the minimiser set while maximising an observable")
    return form.value(x)
