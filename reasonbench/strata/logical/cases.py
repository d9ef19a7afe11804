"""Cases: compose one operator per source into a revision of the world, then draw the query.

Operators run in G, N, A order, each on the state the previous one produced (a multi-source
change is the composition of single-source ones), all aimed at one target atom (targets.py);
the query is drawn afterwards from the executed cubes of all candidates (queries.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator, Transition, operator_order
from reasonbench.strata.logical.queries import Want, ambiguous, choose_query, first_edit_hopeless
from reasonbench.strata.logical.targets import choose_target, reaim
from reasonbench.strata.logical.unit import World


def revise(
    world: World,
    rng: random.Random,
    sources: tuple[str, ...],
    operators: Mapping[str, Operator],
    allowed: Sequence[str] | None,
    hopeless: Callable[[EvaluatorState[Any]], bool] | None = None,
) -> tuple[EvaluatorState[Any], tuple[str, ...]] | None:
    """Apply one allowed operator per requested source, in G, N, A order (composition).

    ``None`` when a source has no applicable operator, or when ``hopeless`` says of the state
    after the first edit that no case of the draw can qualify (the rest of a rejected draw is
    never computed: every draw has its own RNG, so stopping it early changes no other draw)."""
    if not sources or len(set(sources)) != len(sources) or not set(sources) <= set(GNA):
        raise ValueError(f"sources must be distinct members of {GNA}, got {sources}")
    if allowed is not None and not set(allowed) <= set(operators):
        raise ValueError(f"unknown operator(s) {sorted(set(allowed) - set(operators))}")
    state, applied = world.state, []
    world = world.aim(choose_target(world, rng, sources))
    permitted = None if allowed is None else set(allowed)
    for source in (s for s in GNA if s in sources):
        names = sorted(
            n
            for n, op in operators.items()
            if op.source == source and (permitted is None or n in permitted)
        )
        slot = state.sources.index(source)
        for name in operator_order(names, operators, rng):
            component = operators[name].apply(world, state, rng)
            if component is not None and component != state.components[slot]:
                parts = (*state.components[:slot], component, *state.components[slot + 1 :])
                state = EvaluatorState(state.sources, parts)
                applied.append(name)
                if hopeless is not None and len(applied) == 1 and hopeless(state):
                    return None
                world = reaim(world, state, rng)
                break
        else:
            return None
    return state, tuple(applied)


def sample_case(
    world: World,
    rng: random.Random,
    sources: tuple[str, ...],
    operators: Mapping[str, Operator],
    allowed: Sequence[str] | None = None,
    min_depth: int | None = None,
    max_depth: int | None = None,
    want: Want | None = None,
) -> Transition | None:
    """Revise the world's base state, then draw the query (``None`` if nothing qualifies)."""
    hopeless = None
    if want is ambiguous and len(sources) == 2:
        old = world.state
        hopeless = partial(first_edit_hopeless, world, old, max_depth=max_depth)
    revised = revise(world, rng, sources, operators, allowed, hopeless)
    if revised is None:
        return None
    new, applied = revised
    chosen = choose_query(world, world.state, new, rng, min_depth, max_depth, want)
    if chosen is None:
        return None
    return Transition(world.unit_id, world.state, new, applied, {"query": list(chosen.query)})
