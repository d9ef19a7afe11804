"""Compilation (Lemma 1): the compiled forms equal the direct definitions at every position."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from reasonbench.are import (
    CHANNELS,
    ReflectiveState,
    direct_energy,
    energy_form,
    override_form,
    violated,
    violation_form,
)
from tests.are.conftest import positions, states


@settings(max_examples=60, deadline=None)
@given(states(high=8))
def test_compiled_energy_equals_direct_energy_everywhere(state: ReflectiveState) -> None:
    form = energy_form(state)
    assert np.allclose(form.W, form.W.T) and not np.diag(form.W).any()
    X = np.array(positions(state.n))
    compiled = form.values(X)
    for x, value in zip(X, compiled, strict=True):
        assert abs(value - direct_energy(state, x)) < 1e-9
        assert abs(form.value(x) - value) < 1e-9


@settings(max_examples=40, deadline=None)
@given(states(high=7))
def test_violation_and_override_forms_match_their_definitions(state: ReflectiveState) -> None:
    violation = violation_form(state, state.relations)
    overrides = {s: override_form(state, s) for s in CHANNELS}
    for x in positions(state.n):
        broken = violated(state, x)
        weight = sum(state.relations[k].weight for k in broken)
        assert abs(violation.value(x) - weight) < 1e-9
        for s, form in overrides.items():
            direct = sum(
                state.relations[k].weight for k in broken if state.relations[k].channel == s
            )
            direct += sum(
                c.stubbornness * abs(c.anchor)
                for c, xi in zip(state.claims, x, strict=True)
                if c.channel == s and xi * c.anchor < 0
            )
            assert abs(form.value(x) - direct) < 1e-9


@settings(max_examples=30, deadline=None)
@given(states(high=7))
def test_flip_changes_energy_by_twice_the_signed_field(state: ReflectiveState) -> None:
    """Lemma 2: E(x^(u)) - E(x) = 2 x_u h_u(x)."""
    form = energy_form(state)
    for x in positions(state.n)[:16]:
        h = form.fields(x)
        for u in range(state.n):
            y = x.copy()
            y[u] = -y[u]
            assert abs(form.value(y) - form.value(x) - 2 * x[u] * h[u]) < 1e-9
