"""No agentic gold label hinges on a float: the sampler returns only certified cubes.

Every cell of every returned transition keeps its margin from every oversight threshold
(``reasonbench.are.robust``); aimed ambiguous draws too; the capability probe that lets an
aimed draw give up on a unit is a function of the unit alone; traces print numbers robustly.
"""

from __future__ import annotations

import random

from reasonbench.strata.agentic import AgenticAdjudicator, AgenticStratum, AgenticUnit
from reasonbench.strata.agentic.adjudicator import _fmt
from reasonbench.strata.agentic.ambiguity import capable
from reasonbench.strata.base import Transition


def test_every_fixture_cube_is_certified(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    for t in transitions:
        assert stratum.adjudicator(t.context).certified_cube(t.old, t.new)


def test_aimed_ambiguous_draws_are_certified_and_ambiguous(
    stratum: AgenticStratum, units: list[AgenticUnit]
) -> None:
    from reasonbench.core.cube import execute_cube
    from reasonbench.core.receipt import receipt_of

    found = 0
    for i, unit in enumerate(units[30:40]):
        t = stratum.sample_transition(unit, random.Random(f"amb:{i}"), ("G", "A"), aim="ambiguous")
        if t is None:
            continue
        adj = stratum.adjudicator(t.context)
        assert adj.certified_cube(t.old, t.new)
        found += receipt_of(execute_cube(adj, t.old, t.new)).ambiguous
    assert found >= 3


def test_the_capability_probe_is_a_function_of_the_unit(stratum: AgenticStratum) -> None:
    unit = stratum.units(0)[1]  # agentic-consumer-001: a robust refer nothing moves alike
    fresh = AgenticStratum().units(0)[1]
    assert unit is not fresh and unit.unit_id == fresh.unit_id
    every = frozenset(stratum.operators)
    adj = AgenticAdjudicator(unit.family.actions)
    assert capable(unit, every, stratum.operators, adj) is False
    assert capable(fresh, every, stratum.operators, adj) is False
    assert ("ambiguous", every) in unit.probes  # memoised on the unit
    rng = random.Random(0)
    assert stratum.sample_transition(unit, rng, ("G", "A"), aim="ambiguous") is None
    assert rng.random() == random.Random(0).random()  # gave up without touching the draw's RNG


def test_trace_numbers_round_half_up_whatever_the_float_noise() -> None:
    assert _fmt(0.125) == _fmt(0.12500000000000003) == _fmt(0.12499999999999997) == "0.13"
    assert _fmt(1.12) == "1.12" and _fmt(-0.0) == "0.00" and _fmt(float("inf")) == "inf"


def test_the_liveliness_probe_is_a_function_of_the_unit(stratum: AgenticStratum) -> None:
    from reasonbench.strata.agentic.sampler import lively

    held = frozenset(("g_flip_outcome", "n_drop_relation", "a_stubbornness"))
    answers = []
    for units in (stratum.units(0), AgenticStratum().units(0)):
        answers.append(
            [
                lively(u, held, stratum.operators, AgenticAdjudicator(u.family.actions))
                for u in units[:8]
            ]
        )
        assert all(("changed", held) in u.probes for u in units[:8])
    assert answers[0] == answers[1]
    assert any(answers[0])  # most units change under these operators
