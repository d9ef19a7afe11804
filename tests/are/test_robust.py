"""Threshold margins (``are.robust``): signs, deltas, both readings of rho, certification."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reasonbench.are import random_state, solve
from reasonbench.are.compilation import rho, trusted_weight
from reasonbench.are.oversight import Thresholds, observables, oversee
from reasonbench.are.robust import (
    FLOOR,
    RELATIVE,
    Margin,
    certified,
    delta,
    threshold_margins,
    total_weight,
)
from reasonbench.are.solver import Solution


def _solution(gamma: float, violated: float, *overrides: float) -> Solution:
    return Solution((), 0.0, (), gamma, True, (violated, *overrides), "enumeration", 0)


def test_delta_is_five_percent_with_a_floor() -> None:
    assert delta(0.5) == RELATIVE * 0.5 == pytest.approx(0.025)
    assert delta(0.1) == FLOOR == 0.01
    assert delta(4.0) == pytest.approx(0.2)


def test_margins_are_signed_so_that_positive_means_the_rule_does_not_fire() -> None:
    state = random_state(random.Random(3), 8)
    t = Thresholds(0.5, 0.35, (("operator", 2.0), ("user", math.inf)))
    trusted, total = trusted_weight(state), total_weight(state)
    margins = {m.name: m for m in threshold_margins(state, _solution(0.4, 1.0, 2.5, 9.0), t)}
    assert set(margins) == {"gamma", "rho", "rho_total", "override:operator"}  # inf: no rule
    assert margins["gamma"].signed == 0.4 - 0.5 and margins["gamma"].fires
    assert margins["rho"].value == rho(1.0, trusted)
    assert margins["rho_total"].value == rho(1.0, total)
    assert margins["override:operator"].signed == 2.0 - 2.5


def test_a_quantity_on_its_threshold_is_not_certified() -> None:
    exact = Margin("gamma", 0.5, 0.5, 0.0)
    noisy = Margin("gamma", 0.5, 0.5 - 1e-15, -1e-15)  # passes O1's tolerance, not the margin
    far = Margin("gamma", 0.5, 0.6, 0.1)
    rho_ok = [Margin("rho", 0.35, 0.1, 0.25), Margin("rho_total", 0.35, 0.1, 0.25)]
    assert not certified([exact, *rho_ok])
    assert not certified([noisy, *rho_ok])
    assert certified([far, *rho_ok])


def test_the_two_readings_of_rho_must_agree() -> None:
    gamma = Margin("gamma", 0.5, 2.0, 1.5)
    split = [gamma, Margin("rho", 0.35, 0.45, -0.1), Margin("rho_total", 0.35, 0.25, 0.1)]
    assert all(m.kept for m in split) and not certified(split)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((0.25, 0.5, 1.0)), st.sampled_from((0.2, 0.35)))
def test_a_certified_verdict_survives_every_threshold_within_delta(
    seed: int, gamma_min: float, rho_max: float
) -> None:
    """What certification buys: moving any threshold by less than its delta (or reading rho
    over all relations) changes no rule that fires."""
    state = random_state(random.Random(seed), 9)
    t = Thresholds(gamma_min, rho_max, (("operator", 2.0),))
    solution, review = oversee(state, t)
    assume(certified(threshold_margins(state, solution, t)))  # about 3 states in 4
    for factor in (1 - RELATIVE * 0.99, 1 + RELATIVE * 0.99):
        moved = Thresholds(gamma_min * factor, rho_max * factor, (("operator", 2.0 * factor),))
        assert oversee(state, moved)[1].fired == review.fired
    paper = rho(solution.worst[0], total_weight(state))
    assert (paper > rho_max + 1e-6) == ("O2" in review.fired)
    assert solve(state, observables(state, t)).gamma == solution.gamma
