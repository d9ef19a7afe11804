"""A unit's base states share their components, and equal what a fresh construction gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic import AgenticStratum, AgenticUnit, base_state
from reasonbench.strata.agentic.units import OBSERVE, authority_for, grounds_for, norms_for

UNITS: list[AgenticUnit] = AgenticStratum().units(0)


def fresh(unit: AgenticUnit, rng: random.Random) -> EvaluatorState[object]:
    """The base state built from scratch, with the RNG draws base_state makes."""
    observed = tuple(
        (tool, outcome) for tool, outcome in unit.environment.outcomes if rng.random() < OBSERVE
    )
    return EvaluatorState.of(
        G=grounds_for(unit.family, observed),
        N=norms_for(unit.family, unit.stance),
        A=authority_for(unit.family, unit.authority),
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(UNITS) - 1), st.lists(st.integers(0, 2**32), min_size=1, max_size=6))
def test_memoised_base_states_equal_fresh_ones(index: int, seeds: list[int]) -> None:
    unit = UNITS[index]
    for seed in seeds:  # several draws of one unit: later ones come from the memo
        memo, plain = random.Random(seed), random.Random(seed)
        state = base_state(unit, memo)
        assert state == fresh(unit, plain)
        assert memo.random() == plain.random()  # the memo draws nothing more, nothing less


def test_draws_of_a_unit_share_norms_and_authority() -> None:
    unit = UNITS[0]
    first, second = (base_state(unit, random.Random(s)) for s in ("a", "b"))
    assert first["N"] is second["N"] and first["A"] is second["A"]
    again = base_state(unit, random.Random("a"))
    assert again["G"] is first["G"]  # the same observed tools: the same grounds object
