"""The adjudicator's fast path (layout, arrays, cached equilibria) against the plain one.

``AgenticAdjudicator`` compiles energy and oversight forms straight from arrays and caches
equilibria per (G, N, profile) and searches per reduced problem; the plain path builds the
``ReflectiveState`` and calls ``oversee``. Every cell of every fixture transition must agree:
forms, verdict, Gamma_A, rho, overrides, and the constructed state itself.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from reasonbench.are import enumeration
from reasonbench.are.compilation import energy_form, override_form, trusted_weight, violation_form
from reasonbench.are.oversight import Thresholds, oversee
from reasonbench.are.reduction import reduce_problem
from reasonbench.are.robust import threshold_margins
from reasonbench.core.adjudicator import REFER
from reasonbench.core.state import hybrid
from reasonbench.strata.agentic import AgenticStratum, adjudicator
from reasonbench.strata.agentic.components import Authority
from reasonbench.strata.base import Transition

PROTECTED = (("agent", 3.0), ("operator", 2.0), ("user", 4.0))


def _close(a: float, b: float) -> bool:
    return (math.isinf(a) and math.isinf(b)) or abs(a - b) < 1e-9


def test_fast_path_equals_the_plain_construction(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    for t in transitions:
        adj = stratum.adjudicator(t.context)
        for mask in range(8):
            state = hybrid(t.old, t.new, mask)
            g, n, a = adjudicator.parts(state)
            # protect every source, so the override forms are exercised too
            a = Authority(a.profile, replace(a.oversight, protected=PROTECTED))
            state = state.replace(A=a)
            decision = adj.decision(state)
            plain = adjudicator.deliberation(g, n, a, adj.actions)
            assert decision.state == plain
            numbers = decision.numbers
            for fast, slow in (
                (numbers.energy, energy_form(plain)),
                (numbers.violation, violation_form(plain, plain.relations)),
                *((numbers.override(s), override_form(plain, s)) for s, _ in PROTECTED),
            ):
                assert np.allclose(fast.W, slow.W) and np.allclose(fast.b, slow.b)
                assert fast.c == pytest.approx(slow.c)
            assert numbers.trusted_weight == pytest.approx(trusted_weight(plain))
            solution, review = oversee(plain, a.oversight)
            verdict = REFER if review.fired else adjudicator.decision_label(solution.decision)
            assert decision.verdict == verdict
            assert decision.solution.x == solution.x
            assert _close(decision.solution.gamma, solution.gamma)
            assert all(
                _close(u, v) for u, v in zip(decision.solution.worst, solution.worst, strict=True)
            )
            slow_margins = threshold_margins(plain, solution, a.oversight)
            assert [m.name for m in decision.margins] == [m.name for m in slow_margins]
            assert all(
                _close(m.signed, s.signed)
                for m, s in zip(decision.margins, slow_margins, strict=True)
            )


def test_the_search_cache_returns_what_a_fresh_search_does(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    adj = stratum.adjudicator(transitions[0].context)
    for t in transitions[:6]:
        for mask in range(8):
            g, n, a = adjudicator.parts(hybrid(t.old, t.new, mask))
            found = adjudicator.settled(g, n, a.profile, adj.actions)
            problem = reduce_problem(found.state, found.form, ())
            cached = enumeration.enumerate_search(problem)
            fresh = enumeration._search(problem)
            assert np.array_equal(cached.x, fresh.x) and cached.gamma == fresh.gamma
            assert cached.unique == fresh.unique
            assert np.array_equal(cached.minimisers, fresh.minimisers)


def test_threshold_only_changes_share_one_search(stratum: AgenticStratum, units: list) -> None:
    unit = units[0]
    state = stratum.sample_transition(unit, random.Random(7), ("G",))
    assert state is not None
    g, n, a = adjudicator.parts(state.old)
    stricter = Authority(a.profile, Thresholds(1.0, 0.2, ()))
    adj = stratum.adjudicator(state.context)
    first = adj.decision(state.old)
    second = adj.decision(state.old.replace(A=stricter))
    assert first.numbers is second.numbers  # one equilibrium, two reviews
    assert second.margins != first.margins
