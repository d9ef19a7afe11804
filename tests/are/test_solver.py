"""The exact solver against brute force, and its two backends against each other."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings

from reasonbench.are import (
    Claim,
    ReflectiveState,
    consequential_decision,
    direct_energy,
    feasible,
    override_form,
    random_state,
    solve,
    violation_form,
)
from reasonbench.are.compilation import TOL
from tests.are.conftest import positions, states


def brute_force(
    state: ReflectiveState,
) -> tuple[float, list[np.ndarray], list[tuple[float, np.ndarray]]]:
    scored = [(direct_energy(state, x), x) for x in positions(state.n) if feasible(state, x)]
    best = min(e for e, _ in scored)
    return best, [x for e, x in scored if e <= best + TOL], scored


@settings(max_examples=80, deadline=None)
@given(states(high=10))
def test_exact_solver_equals_brute_force(state: ReflectiveState) -> None:
    observables = [violation_form(state, state.relations), override_form(state, "operator")]
    best, minimisers, scored = brute_force(state)
    for method in ("enumeration", "milp"):
        solution = solve(state, observables, method=method)
        x = solution.vector()
        assert feasible(state, x)
        assert abs(solution.energy - best) < 1e-6
        assert abs(direct_energy(state, x) - best) < 1e-6
        decision = consequential_decision(state, x)
        others = [e for e, y in scored if consequential_decision(state, y) != decision]
        gamma = min(others) - best if others else math.inf
        assert solution.gamma >= 0
        assert (math.isinf(gamma) and math.isinf(solution.gamma)) or abs(
            solution.gamma - gamma
        ) < 1e-6
        assert solution.unique == (len(minimisers) == 1)
        for form, worst in zip(observables, solution.worst, strict=True):
            assert abs(worst - max(form.value(y) for y in minimisers)) < 1e-6


@settings(max_examples=60, deadline=None)
@given(states(high=9))
def test_feasibility_respects_h_and_f(state: ReflectiveState) -> None:
    x = solve(state).x
    for u, status in state.fixed:
        assert x[state.index[u]] == status
    for h, a in state.prohibitions:
        assert not (x[state.index[h]] > 0 and x[state.index[a]] > 0)


@settings(max_examples=40, deadline=None)
@given(states(high=9))
def test_presolve_changes_nothing_but_the_search(state: ReflectiveState) -> None:
    observables = [violation_form(state, state.relations)]
    a = solve(state, observables, presolve=True)
    b = solve(state, observables, presolve=False)
    assert abs(a.energy - b.energy) < 1e-9
    assert a.gamma == b.gamma or abs(a.gamma - b.gamma) < 1e-9
    assert a.unique == b.unique and abs(a.worst[0] - b.worst[0]) < 1e-9
    assert a.free <= b.free


def test_enumeration_and_milp_agree_beyond_brute_force() -> None:
    """States too large for brute force (16-20 claims): both exact backends coincide."""
    for seed in range(6):
        rng = random.Random(f"agree:{seed}")
        state = random_state(rng, rng.randint(16, 20), density=2.0)
        observables = [violation_form(state, state.relations)]
        a = solve(state, observables, method="enumeration")
        b = solve(state, observables, method="milp")
        assert abs(a.energy - b.energy) < 1e-6
        assert a.gamma == b.gamma or abs(a.gamma - b.gamma) < 1e-6
        assert a.unique == b.unique and abs(a.worst[0] - b.worst[0]) < 1e-6
        if a.gamma > TOL:
            assert a.decision == b.decision


def test_everything_fixed() -> None:
    """No free claim left after the reduction: both backends return the prescribed position."""
    claims = (Claim("a", "A", "agent", -0.3, 0.2), Claim("p", "P", "operator", 1.0, 1.5))
    state = ReflectiveState(claims, fixed=(("a", -1), ("p", 1)), consequential=("a",))
    for method in ("enumeration", "milp"):
        solution = solve(state, method=method)
        assert solution.x == (-1, 1) and solution.free == 0 and math.isinf(solution.gamma)
        assert solution.decision == () and solution.unique


def test_unknown_method_is_rejected() -> None:
    state = random_state(random.Random(1), 4)
    try:
        solve(state, method="annealing")
    except ValueError as exc:
        assert "method" in str(exc)
    else:
        raise AssertionError("expected ValueError")


@settings(max_examples=60, deadline=None)
@given(states(low=4, high=14))
def test_direct_enumeration_equals_elimination(state: ReflectiveState) -> None:
    """Small problems are enumerated whole, larger ones with elimination and blocks: on the
    same reduced problem both give the same minimisers, selection, Gamma_A and uniqueness."""
    from reasonbench.are import energy_form
    from reasonbench.are.enumeration import LIMIT, _direct, _eliminate, eliminable
    from reasonbench.are.reduction import reduce_problem

    problem = reduce_problem(state, energy_form(state), ())
    if problem.n - len(eliminable(problem)) > LIMIT:
        return
    whole, blocks = _direct(problem), _eliminate(problem)
    assert np.array_equal(whole.x, blocks.x)
    assert whole.unique == blocks.unique
    assert (math.isinf(whole.gamma) and math.isinf(blocks.gamma)) or abs(
        whole.gamma - blocks.gamma
    ) < 1e-9
    assert whole.minimisers is not None and blocks.minimisers is not None
    assert sorted(map(tuple, whole.minimisers)) == sorted(map(tuple, blocks.minimisers))
