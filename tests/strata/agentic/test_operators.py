"""Every operator applies, touches only its source, and the no-ops are inert."""

from __future__ import annotations

import random

from reasonbench.core import execute_cube
from reasonbench.core.sources import GNA
from reasonbench.strata.agentic import (
    HELD_OUT_OPERATORS,
    OPERATORS,
    AgenticStratum,
    AgenticUnit,
    base_state,
)
from reasonbench.strata.agentic.sampler import inert


def test_every_operator_applies_somewhere(units: list[AgenticUnit]) -> None:
    for name, op in OPERATORS.items():
        applied = 0
        for i, unit in enumerate(units[::4]):
            rng = random.Random(f"op:{name}:{i}")
            state = base_state(unit, rng)
            component = op.apply(unit, state, rng)
            if component is not None and component != state[op.source]:
                applied += 1
                assert type(component) is type(state[op.source])
        assert applied >= 4, name
    assert all(h in OPERATORS for h in HELD_OUT_OPERATORS)
    assert sorted({OPERATORS[h].source for h in HELD_OUT_OPERATORS}) == sorted(GNA)


def test_noop_operators_are_inert(stratum: AgenticStratum, units: list[AgenticUnit]) -> None:
    for name in ("g_inject", "n_inert_principle", "a_lax_override"):
        source = OPERATORS[name].source
        for i, unit in enumerate(units[::8]):
            t = stratum.sample_transition(unit, random.Random(f"noop:{i}"), (source,), [name])
            assert t is not None
            cube = execute_cube(stratum.adjudicator(t.context), t.old, t.new)
            assert not cube.changed and inert(cube, source)
