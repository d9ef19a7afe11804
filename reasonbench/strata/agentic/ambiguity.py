"""Steering a draw towards a receipt-ambiguous case (the ``aim="ambiguous"`` hint).

A receipt is ambiguous when two revised sources each reproduce the new verdict alone (or, with
three, when two minimal sets exist). Every agentic operator reads only its own component, so
edits of different sources can be proposed independently from the base state and combined: for
each revised source a few candidate edits are drawn and the verdict of the base with that one
source replaced is computed (one adjudication each); pairs of sources whose candidates move the
verdict to the *same* new label are combined and the full cube is executed. Typical pair: new
evidence of damage and a stricter margin threshold, each alone sending the decision to ``refer``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import product
from typing import Any

from reasonbench.core.cube import execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.adjudicator import AgenticAdjudicator
from reasonbench.strata.agentic.units import AgenticUnit, base_state
from reasonbench.strata.base import Operator

PROPOSALS = {"G": 6, "N": 12, "A": 12}
"""Candidate edits drawn per revised source and base state: grounds edits are few and often
move the verdict; norms and authority edits rarely do, and pairs grow with the product."""
DENSITY = ("G", "A", "N")
"""Sources in the order their proposals are drawn: by how often one edit alone moves the
verdict (measured on the default units: about 50 % of grounds edits, 10 % of authority edits,
5 % of norms edits), so that a base whose likeliest movers do not move is left early."""

Edit = tuple[str, Any, str]  # (operator name, new component, verdict with only this source new)


def proposals(
    unit: AgenticUnit,
    base: EvaluatorState[Any],
    source: str,
    names: list[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
    rng: random.Random,
    count: int,
) -> list[Edit]:
    """Up to ``count`` distinct edits of ``source`` whose own cell is certified, and the
    single-source verdict of each."""
    out: list[Edit] = []
    seen: set[Any] = {base[source]}  # components hash once (a list compared them deeply)
    for _ in range(count):
        name = names[rng.randrange(len(names))]
        component = operators[name].apply(unit, base, rng)
        if component is None or component in seen:
            continue
        seen.add(component)
        decision = adjudicator.decision(base.replace(**{source: component}))
        if decision.certified:  # an edit whose own cell sits on a threshold can make no case
            out.append((name, component, decision.verdict))
    return out


def ambiguous_revision(
    unit: AgenticUnit,
    base: EvaluatorState[Any],
    ordered: tuple[str, ...],
    pools: Mapping[str, list[str]],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
    rng: random.Random,
    scale: int = 1,
) -> tuple[EvaluatorState[Any], tuple[str, ...]] | None:
    """A revision of ``base`` (one edit per source of ``ordered``) with an ambiguous receipt
    whose every cell is certified; ``scale`` multiplies the proposals per source."""
    before = adjudicator.adjudicate(base)
    edits: dict[str, list[Edit]] = {}
    movers: dict[str, list[Edit]] = {}
    for source in sorted(ordered, key=DENSITY.index):
        count = PROPOSALS[source] * scale
        edits[source] = proposals(
            unit, base, source, pools[source], operators, adjudicator, rng, count
        )
        if not edits[source]:
            return None
        movers[source] = [e for e in edits[source] if e[2] != before]
        # an ambiguous receipt needs two sources that move the verdict alone: stop proposing
        # as soon as too few sources can still have a mover
        if sum(map(bool, movers.values())) + len(ordered) - len(edits) < 2:
            return None
    for first, second in ((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]):
        for x, y in product(movers[first], movers[second]):
            if x[2] != y[2]:
                continue
            chosen = {first: x, second: y}
            for rest in ordered:
                if rest not in chosen:
                    chosen[rest] = edits[rest][rng.randrange(len(edits[rest]))]
            new = base.replace(**{s: chosen[s][1] for s in ordered})
            # certification first: it stops at the first uncertified cell (same outcome)
            if (
                adjudicator.certified_cube(base, new)
                and receipt_of(execute_cube(adjudicator, base, new)).ambiguous
            ):
                names = tuple(chosen[s][0] for s in GNA if s in chosen)
                return new, names
    return None


PROBE_BASES = 6
PROBE_SCALE = 3  # the probe proposes three times as many edits per source as a draw
PROBE_PAIRS: tuple[tuple[str, str], ...] = (("G", "A"), ("G", "N"), ("N", "A"))


def capable(
    unit: AgenticUnit,
    permitted: frozenset[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
) -> bool:
    """Whether ``unit`` yields any certified ambiguous case with the ``permitted`` operators.

    Some units cannot (a robust ``refer`` that no single edit of two sources moves alike, or
    decisions that sit on a threshold and are never certified); an aimed draw on one would burn
    a whole pool budget. The answer comes from a fixed probe — ``PROBE_BASES`` base states per
    source pair, from RNGs named after the unit and the pair, never from the draw's RNG — so it
    is a function of the unit and the operators alone, the same in every process (memoised on
    the unit)."""
    memo, key = unit.probes, ("ambiguous", permitted)
    if key not in memo:
        memo[key] = _probe(unit, permitted, operators, adjudicator)
    return memo[key]


def permitted_by_source(
    operators: Mapping[str, Operator], permitted: frozenset[str]
) -> dict[str, list[str]]:
    """The permitted operators of each source, by name (a probe's draws pick from these)."""
    return {
        s: sorted(n for n, op in operators.items() if op.source == s and n in permitted)
        for s in GNA
    }


def _probe(
    unit: AgenticUnit,
    permitted: frozenset[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
) -> bool:
    pools = permitted_by_source(operators, permitted)
    for pair in PROBE_PAIRS:
        if not all(pools[s] for s in pair):
            continue
        for k in range(PROBE_BASES):
            rng = random.Random(f"probe:{unit.unit_id}:{''.join(pair)}:{k}")
            base = base_state(unit, rng)
            if adjudicator.decision(base).certified and ambiguous_revision(
                unit, base, pair, pools, operators, adjudicator, rng, PROBE_SCALE
            ):
                return True
    return False
