"""Transitions: a base state of the unit, then one operator per requested source (G, N, A order).

A multi-source change is the composition of single-source ones: each operator sees the state
the previous one left and replaces only its own component; an operator whose result equals the
current component counts as not applicable and the next one (weighted random order) is tried.

Every candidate is executed (all 2^3 cells, cached per state) before it is returned, for two
guarantees and one preference:

* a no-op operator's source is inert in the cube (swapping it never changes a cell); otherwise
  the draw is redrawn;
* with ``aim`` ("changed", "ambiguous", "stable") the first candidate of that class is returned,
  after up to ``AIMED_ATTEMPTS`` base states (a hint: the best other candidate is returned);
  an ambiguous aim proposes and combines edits source by source (:mod:`.ambiguity`);
* without an aim, a draw usually (``PIVOT``) asks every revised non-no-op source to matter in
  some cell, so that most revisions are about something (stable cases stay plentiful).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.adjudicator import AgenticAdjudicator
from reasonbench.strata.agentic.ambiguity import ambiguous_revision, capable, permitted_by_source
from reasonbench.strata.agentic.units import AgenticUnit, base_state
from reasonbench.strata.base import Operator, Transition, operator_order

ATTEMPTS = 6
AIMED_ATTEMPTS = 12
PIVOT = 0.7


def inert(cube: Cube, source: str) -> bool:
    """Swapping ``source`` between old and new never changes a cell."""
    bit = 1 << cube.sources.index(source)
    return all(cube[m] == cube[m | bit] for m in range(1 << cube.k) if not m & bit)


def _matches(aim: str, cube: Cube) -> bool:
    receipt = receipt_of(cube)
    if aim == "stable":
        return receipt.stable
    if aim == "changed":
        return not receipt.stable
    if aim == "ambiguous":
        return receipt.ambiguous
    raise ValueError(f"unknown aim {aim!r}")


def revise(
    unit: AgenticUnit,
    old: EvaluatorState[Any],
    ordered: tuple[str, ...],
    pools: Mapping[str, list[str]],
    operators: Mapping[str, Operator],
    rng: random.Random,
) -> tuple[EvaluatorState[Any], tuple[str, ...]] | None:
    state, applied = old, []
    for source in ordered:
        slot = GNA.index(source)
        for name in operator_order(pools[source], operators, rng):
            component = operators[name].apply(unit, state, rng)
            if component is not None and component != state.components[slot]:
                parts = (*state.components[:slot], component, *state.components[slot + 1 :])
                state = EvaluatorState(state.sources, parts)
                applied.append(name)
                break
        else:
            return None
    return state, tuple(applied)


def sample_case(
    unit: AgenticUnit,
    rng: random.Random,
    sources: tuple[str, ...],
    operators: Mapping[str, Operator],
    allowed: Sequence[str] | None = None,
    aim: str | None = None,
) -> Transition | None:
    if not sources or len(set(sources)) != len(sources) or not set(sources) <= set(GNA):
        raise ValueError(f"sources must be distinct members of {GNA}, got {sources}")
    if allowed is not None and not set(allowed) <= set(operators):
        raise ValueError(f"unknown operator(s) {sorted(set(allowed) - set(operators))}")
    ordered = tuple(s for s in GNA if s in sources)
    permitted = set(operators) if allowed is None else set(allowed)
    pools = {
        s: sorted(n for n, op in operators.items() if op.source == s and n in permitted)
        for s in ordered
    }
    if any(not pools[s] for s in ordered):
        return None
    adjudicator = AgenticAdjudicator(unit.family.actions)
    if aim == "ambiguous" and not capable(unit, frozenset(permitted), operators, adjudicator):
        return None  # the unit has no certified ambiguous case with these operators
    # a unit that yields no change with these operators gets no pivot retries: they would only
    # multiply the cost of its (stable) draws
    pivot = aim is None and rng.random() < PIVOT
    pivot = pivot and lively(unit, frozenset(permitted), operators, adjudicator)
    fallback: Transition | None = None
    fallback_changed = False
    for _ in range(AIMED_ATTEMPTS if aim else ATTEMPTS):
        old = base_state(unit, rng)
        if not adjudicator.decision(old).certified:
            continue  # every cube of this base has it as a cell
        revised = None
        if aim == "ambiguous" and len(ordered) > 1:
            revised = ambiguous_revision(unit, old, ordered, pools, operators, adjudicator, rng)
        if revised is None:
            if aim == "ambiguous" and fallback_changed:
                continue  # an aimed miss already has its changed fallback: no plain revision
            revised = revise(unit, old, ordered, pools, operators, rng)
        if revised is None:
            continue
        new, applied = revised
        # certification first: it stops at the first uncertified cell, and a rejected draw
        # needs no other cell (decisions are pure, so the order changes no outcome)
        if not adjudicator.certified_cube(old, new):
            continue
        cube = execute_cube(adjudicator, old, new)
        noops = [operators[n].source for n in applied if operators[n].noop]
        if not all(inert(cube, s) for s in noops):
            continue
        transition = Transition(unit.unit_id, old, new, applied, unit.context)
        effective = [operators[n].source for n in applied if not operators[n].noop]
        wanted = (
            _matches(aim, cube) if aim else not (pivot and any(inert(cube, s) for s in effective))
        )
        if wanted:
            return transition
        if fallback is None or (aim == "ambiguous" and cube.changed and not fallback_changed):
            fallback, fallback_changed = transition, cube.changed  # an aimed miss: prefer a change
    return fallback


LIVELY_DRAWS = 14
PROBE_SUBSETS: tuple[tuple[str, ...], ...] = (
    ("G",),
    ("N",),
    ("A",),
    ("G", "N"),
    ("G", "A"),
    ("N", "A"),
    ("G", "N", "A"),
)


def lively(
    unit: AgenticUnit,
    permitted: frozenset[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
) -> bool:
    """Whether ``unit`` yields a certified changed case with the ``permitted`` operators in a
    fixed probe of ``LIVELY_DRAWS`` plain revisions (every source subset in turn, RNGs named
    after the unit): a function of the unit and the operators alone, memoised on the unit.
    Some units are frozen (a robust ``refer`` under every edit the operators can make)."""
    memo, key = unit.probes, ("changed", permitted)
    if key not in memo:
        memo[key] = _lively(unit, permitted, operators, adjudicator)
    return memo[key]


def _lively(
    unit: AgenticUnit,
    permitted: frozenset[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
) -> bool:
    pools = permitted_by_source(operators, permitted)
    for k in range(LIVELY_DRAWS):
        subset = PROBE_SUBSETS[k % len(PROBE_SUBSETS)]
        if not all(pools[s] for s in subset):
            continue
        rng = random.Random(f"probe-lively:{unit.unit_id}:{k}")
        old = base_state(unit, rng)
        if not adjudicator.decision(old).certified:
            continue
        revised = revise(unit, old, subset, pools, operators, rng)
        if revised is None:
            continue
        new = revised[0]
        changed = adjudicator.adjudicate(old) != adjudicator.adjudicate(new)
        if changed and adjudicator.certified_cube(old, new):
            return True
    return False
