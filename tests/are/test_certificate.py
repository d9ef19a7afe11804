"""Certificates and provenance attribution: exact decompositions of every action's margin."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings

from reasonbench.are import (
    ReflectiveState,
    attribute,
    attribute_decision,
    certify,
    energy_form,
    margins,
    solve,
    terms,
    violated,
)
from tests.are.conftest import positions, states


@settings(max_examples=60, deadline=None)
@given(states(high=9))
def test_attribution_sums_exactly_to_each_margin(state: ReflectiveState) -> None:
    """Proposition 5, at every position (not only equilibria)."""
    form = energy_form(state)
    for x in positions(state.n)[:: max(1, 2**state.n // 24)]:
        mu = margins(form, x)
        for a in state.actions:
            share = attribute(state, x, a)
            assert abs(sum(v for _, v in share.by_source) - mu[state.index[a]]) < 1e-9
            assert abs(sum(v for _, v in terms(state, x, a)) - mu[state.index[a]]) < 1e-9
        total = attribute_decision(state, x)
        assert abs(sum(total.values()) - sum(mu[state.index[a]] for a in state.actions)) < 1e-9


@settings(max_examples=50, deadline=None)
@given(states(high=9))
def test_certificate_reports_margins_tensions_and_radius(state: ReflectiveState) -> None:
    solution = solve(state)
    cert = certify(state, solution)
    x = solution.vector()
    assert cert.consequential == solution.decision
    assert cert.tensions == violated(state, x)
    assert cert.radius == solution.gamma / 2 or math.isinf(solution.gamma)
    assert [u for u, _ in cert.margins] == [c.id for c in state.claims]
    for reasons in cert.reasons:
        assert abs(sum(v for _, v in reasons.terms) - reasons.margin) < 1e-9
        assert reasons.taken == (x[state.index[reasons.action]] > 0)
    free = {c.id for c in state.claims} - {u for u, _ in state.fixed}
    banned = {c for pair in state.prohibitions for c in pair}
    for u, mu in cert.margins:
        if u in free and u not in banned:
            assert mu >= -1e-9  # a global equilibrium is a local one
    data = cert.to_json(state)
    assert set(data) >= {"decision", "margins", "reasons", "tensions", "gamma", "radius"}
    assert np.isfinite(data["energy"])
