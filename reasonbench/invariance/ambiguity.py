"""Clear versus ambiguous items, defined by execution (principle 3, ambiguity-aware calibration).

An item is **ambiguous** when execution shows its verdict is fragile or its account is not
unique; otherwise it is **clear**:

* *at a threshold*: moving one numeric fact of the old or the revised case by up to ``margin``
  grid steps (either way, inside the field's range) changes that endpoint's executed verdict —
  the case sits at a threshold or a band edge of its rule or scope;
* *receipt-ambiguous*: the gold receipt has more than one minimal set.

A flip on a clear item under a certified-equivalent rewrite is *unreasonable*: nothing about the
item invites a different reading, only the wording changed.
"""

from __future__ import annotations

from typing import Any

from reasonbench.core.receipt import Receipt
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.schema import Clause

__all__ = ["ambiguity_reasons", "boundary_fields"]


def boundary_fields(clause: Clause, state: EvaluatorState[Any], margin: int = 1) -> tuple[str, ...]:
    """Numeric facts of ``state`` within ``margin`` grid steps of changing its verdict."""
    grounds, norm, scope = unpack(state)
    verdict = ADJUDICATOR.adjudicate(state)
    found = []
    for spec in clause.fields:
        if not spec.numeric or spec.name not in grounds.mapping:
            continue
        value = int(grounds[spec.name])
        moves = [value + k * spec.step for k in range(-margin, margin + 1) if k]
        for moved in moves:
            if spec.minimum <= moved <= spec.maximum:
                neighbour = EvaluatorState.of(G=grounds.replace(spec.name, moved), N=norm, A=scope)
                if ADJUDICATOR.adjudicate(neighbour) != verdict:
                    found.append(spec.name)
                    break
    return tuple(found)


def ambiguity_reasons(
    clause: Clause, transition: Transition, receipt: Receipt, margin: int = 1
) -> tuple[str, ...]:
    """Why an item is ambiguous (empty: it is clear), e.g. ``("new:amount", "receipt")``."""
    reasons = [f"old:{f}" for f in boundary_fields(clause, transition.old, margin)]
    reasons += [f"new:{f}" for f in boundary_fields(clause, transition.new, margin)]
    if receipt.ambiguous:
        reasons.append("receipt")
    return tuple(reasons)
