"""Every operator applies, touches only its source, and the no-ops are inert."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from reasonbench.core import execute_cube
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic import (
    HELD_OUT_OPERATORS,
    OPERATORS,
    AgenticStratum,
    AgenticUnit,
    base_state,
)
from reasonbench.strata.agentic.components import Authority
from reasonbench.strata.agentic.ops.authority import UNTRUSTED_REGIMES
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


def with_regime(state: EvaluatorState[Any], kappa: float, cap: float) -> EvaluatorState[Any]:
    """``state`` with untrusted content counting ``kappa`` and capped at ``cap`` (inf: none)."""
    authority = state["A"]
    assert isinstance(authority, Authority)
    p = authority.profile
    stubbornness = tuple((c, kappa if c == "untrusted" else k) for c, k in p.stubbornness)
    caps = tuple(sorted({**dict(p.caps), "untrusted": cap}.items()))
    caps = tuple((c, w) for c, w in caps if not math.isinf(w))
    profile = replace(p, stubbornness=stubbornness, caps=caps)
    return state.replace(A=replace(authority, profile=profile))


def test_noop_operators_are_inert(stratum: AgenticStratum, units: list[AgenticUnit]) -> None:
    """Each no-op applied directly to base states, under every untrusted-content regime (no
    sampler filter): swapping its source never changes a cell of the executed cube."""
    for name in ("g_inject", "n_inert_principle", "a_lax_override"):
        op = OPERATORS[name]
        applied = 0
        for i, unit in enumerate(units):
            adjudicator = stratum.adjudicator(unit.context)
            for d, (kappa, cap) in enumerate(UNTRUSTED_REGIMES):
                rng = random.Random(f"noop:{name}:{i}:{d}")
                old = with_regime(base_state(unit, rng), kappa, cap)
                component = op.apply(unit, old, rng)
                if component is None or component == old[op.source]:
                    continue
                applied += 1
                cube = execute_cube(adjudicator, old, old.replace(**{op.source: component}))
                assert not cube.changed and inert(cube, op.source), (name, unit.unit_id, d)
        assert applied >= 3 * len(units), (name, applied)
