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
from reasonbench.strata.agentic.units import AgenticUnit
from reasonbench.strata.base import Operator

PROPOSALS = 6  # candidate edits drawn per revised source and base state

Edit = tuple[str, Any, str]  # (operator name, new component, verdict with only this source new)


def proposals(
    unit: AgenticUnit,
    base: EvaluatorState[Any],
    source: str,
    names: list[str],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
    rng: random.Random,
) -> list[Edit]:
    """Up to ``PROPOSALS`` distinct edits of ``source`` and the single-source verdict of each."""
    out: list[Edit] = []
    seen: list[Any] = [base[source]]
    for _ in range(PROPOSALS):
        name = names[rng.randrange(len(names))]
        component = operators[name].apply(unit, base, rng)
        if component is None or component in seen:
            continue
        seen.append(component)
        out.append((name, component, adjudicator.adjudicate(base.replace(**{source: component}))))
    return out


def ambiguous_revision(
    unit: AgenticUnit,
    base: EvaluatorState[Any],
    ordered: tuple[str, ...],
    pools: Mapping[str, list[str]],
    operators: Mapping[str, Operator],
    adjudicator: AgenticAdjudicator,
    rng: random.Random,
) -> tuple[EvaluatorState[Any], tuple[str, ...]] | None:
    """A revision of ``base`` (one edit per source of ``ordered``) with an ambiguous receipt."""
    before = adjudicator.adjudicate(base)
    edits = {s: proposals(unit, base, s, pools[s], operators, adjudicator, rng) for s in ordered}
    if any(not e for e in edits.values()):
        return None
    movers = {s: [e for e in edits[s] if e[2] != before] for s in ordered}
    for first, second in ((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]):
        for x, y in product(movers[first], movers[second]):
            if x[2] != y[2]:
                continue
            chosen = {first: x, second: y}
            for rest in ordered:
                if rest not in chosen:
                    chosen[rest] = edits[rest][rng.randrange(len(edits[rest]))]
            new = base.replace(**{s: chosen[s][1] for s in ordered})
            if receipt_of(execute_cube(adjudicator, base, new)).ambiguous:
                names = tuple(chosen[s][0] for s in GNA if s in chosen)
                return new, names
    return None
