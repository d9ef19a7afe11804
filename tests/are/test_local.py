"""Local equilibria: best response stops at one, and every global equilibrium is one."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.are import (
    ReflectiveState,
    best_response,
    energy_form,
    is_local_equilibrium,
    lexically_prior,
    solve,
)
from reasonbench.are.local import best_response_restarts, feasible_start
from tests.are.conftest import states


@settings(max_examples=60, deadline=None)
@given(states(high=10), st.integers(0, 2**16))
def test_best_response_reaches_a_local_equilibrium(state: ReflectiveState, seed: int) -> None:
    rng = random.Random(seed)
    start = np.array([rng.choice((-1.0, 1.0)) for _ in range(state.n)])
    form = energy_form(state)
    found = best_response(state, start, form)
    x = np.array(found.x, dtype=float)
    assert is_local_equilibrium(state, x, form)
    assert found.energy <= form.value(feasible_start(state, start)) + 1e-9


@settings(max_examples=60, deadline=None)
@given(states(high=10))
def test_global_equilibrium_is_local_and_restarts_never_beat_it(state: ReflectiveState) -> None:
    solution = solve(state)
    assert is_local_equilibrium(state, solution.vector())
    approximate = best_response_restarts(state, random.Random(0), 5)
    assert approximate.energy >= solution.energy - 1e-9


@settings(max_examples=60, deadline=None)
@given(states(high=10))
def test_lexically_prior_claims_take_the_sign_of_their_field(state: ReflectiveState) -> None:
    """Proposition 1: |b_u| > sum |W_uv| forces x_u = sgn(b_u) in every equilibrium."""
    solution = solve(state)
    for claim, sign in lexically_prior(state, energy_form(state)).items():
        assert solution.x[state.index[claim]] == sign
