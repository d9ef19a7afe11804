"""Composing typed operators into a transition: one operator per requested source, G then N then A.

A multi-source change is literally the composition of single-source ones: each operator sees the
state left by the previous one and replaces only its own component. Two guarantees are enforced
here, not hoped for:

* every requested source really changes (an operator whose result equals the current component
  counts as not applicable), and no other source does;
* a *no-op* operator's source is inert in the final cube: swapping it in or out never changes a
  cell. By construction this holds for single-source changes; when a later operator undoes it
  (e.g. a new requirement on the fact a no-op touched), the draw is redrawn.

Cost (see "Measurements" in docs/strata/organizational.md): a plain draw takes about 1.3 base
states and 6 operator calls. The final requirement of a pivot draw (every revised source
matters in the executed cells) is checked on each candidate of the *last* edit, so a prefix
whose last edit can meet it is not thrown away; an operator that cannot make a wanted edit on
this state gives way to the next one (:mod:`.editing`) instead of costing a new base state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator, Transition
from reasonbench.strata.organizational.editing import Step, apply_one
from reasonbench.strata.organizational.focus import Focus
from reasonbench.strata.organizational.operators import by_source, resolve
from reasonbench.strata.organizational.pivots import (
    GOALS,
    Wanted,
    aimed_wanted,
    cells,
    inert,
    jurisdiction,
    pivotal,
    possibly_ambiguous,
    touched,
)
from reasonbench.strata.organizational.sampling import sample_base
from reasonbench.strata.organizational.schema import Clause

ATTEMPTS = 12  # fresh base states tried before giving up on a (sources, operators) request
AIMED_ATTEMPTS = 5  # fresh base states tried for an ambiguous case on aim="ambiguous"
AMBIGUOUS = 0.15  # chance a plain multi-source draw first tries for an ambiguous case
JOINT = 0.15  # chance it first tries for one that needs every revised source
PATIENCE = 2  # fresh base states tried for such a goal
PIVOT = 0.7  # chance every revised source must matter in the cube


def check_sources(sources: tuple[str, ...]) -> None:
    if not sources or any(s not in GNA for s in sources) or len(set(sources)) != len(sources):
        raise ValueError(f"sources must be a non-empty subset of {GNA}, got {sources}")


@lru_cache(maxsize=64)
def pools(operators: tuple[str, ...] | None) -> Mapping[str, tuple[Operator, ...]]:
    """The allowed operators by source (``KeyError`` for an unknown name; errors are not cached)."""
    return by_source(resolve(operators))


class Request:
    """One ``sample_transition`` call: the clause, sources in G, N, A order, pools, steering.

    ``pivot``: every revised source must matter (be non-inert) in the cube. ``goal``, if set,
    asks for more: ``"ambiguous"`` (a receipt-ambiguous case) or ``"joint"`` (every revised
    source needed: the minimal receipt set is all of them), see :data:`.pivots.GOALS`.
    """

    def __init__(
        self,
        clause: Clause,
        ordered: tuple[str, ...],
        pools: Mapping[str, tuple[Operator, ...]],
        pivot: bool,
        goal: str | None = None,
    ) -> None:
        self.clause, self.ordered, self.pools = clause, ordered, pools
        self.pivot, self.goal = pivot, goal
        self.changed = sum(1 << GNA.index(s) for s in ordered)

    def score(self, verdicts: tuple[str, ...], applied: Sequence[Operator], extra: str = "") -> int:
        """-1: a no-op source is not inert (never returned); 0: in a pivot draw, a revised
        source is inert; 1: the goal is missed; 2: acceptable.
        ``extra`` names the source of an edit not in ``applied`` yet (never a no-op)."""
        if not all(inert(verdicts, op.source) for op in applied if op.noop):
            return -1
        if self.pivot:
            effective = [op.source for op in applied if not op.noop] + ([extra] if extra else [])
            if any(inert(verdicts, s) for s in effective):
                return 0
        return 1 if self.goal and not GOALS[self.goal](verdicts, self.changed) else 2

    def want(
        self, old: EvaluatorState[Any], applied: list[Operator], rng: random.Random
    ) -> Wanted | None:
        """What the next edit should achieve (``None``: any edit will do)."""
        source = self.ordered[len(applied)]
        aimed = self.goal == "ambiguous"
        steer = None if aimed or not self.pivot else jurisdiction(source, self.ordered, rng)
        if source == self.ordered[-1] and self.pivot:  # the final requirement, checked exactly

            def final(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
                if steer is not None and not steer(before, after):
                    return False
                return self.score(cells(old, after), applied, source) == 2

            return final
        if aimed:
            return aimed_wanted(source, self.ordered, old)
        if steer is None and self.pivot and source == "N":
            origin = old.components[0]
            return lambda before, after: pivotal(before, after, source, origin)
        return steer

    def chain(self, old: EvaluatorState[Any], rng: random.Random) -> list[Step] | None:
        """One edit per source on base ``old`` (``None`` when an edit does not apply)."""
        state = old
        applied: list[Operator] = []
        steps: list[Step] = []
        origin = old.components[0]
        mirror = self.goal == "ambiguous"
        for source in self.ordered:
            focus = touched(self.clause, old, state)
            unit = Focus(self.clause, focus, origin, mirror) if focus else self.clause
            want = self.want(old, applied, rng)
            last = source == self.ordered[-1]
            step = apply_one(unit, state, self.pools[source], rng, want, bool(self.goal), not last)
            if step is None:
                return None
            steps.append(step)
            state = step[0]
            applied.append(step[1])
        return steps


def sample_transition(
    clause: Clause,
    rng: random.Random,
    sources: tuple[str, ...],
    operators: Sequence[str] | None = None,
    aim: str | None = None,
) -> Transition | None:
    """A base state for ``clause`` and a revision changing exactly ``sources`` (or ``None``).

    ``aim="ambiguous"`` steers 2- and 3-source requests that can yield a receipt-ambiguous
    case towards one (:func:`.pivots.aimed_wanted`, :class:`.focus.Focus` ``mirror``); it is a
    hint: when ``AIMED_ATTEMPTS`` attempts give none, an ordinary transition is returned.
    Other aims are ignored.
    """
    check_sources(sources)
    ordered = tuple(s for s in GNA if s in sources)
    allowed = pools(None if operators is None else tuple(operators))
    if any(not allowed[s] for s in ordered):
        return None
    # Usually (PIVOT) every revised source must matter somewhere in the cube (swapping it
    # changes some cell); without this, most revisions would be about nothing. No-op
    # operators must instead be inert. Some plain multi-source draws first try for a goal
    # (PATIENCE attempts), as an aim="ambiguous" request does: the rarer receipts stay common.
    goal, patience = None, 0
    if aim == "ambiguous" and possibly_ambiguous(ordered):
        goal, patience = "ambiguous", AIMED_ATTEMPTS
    elif len(ordered) > 1:
        draw = rng.random()
        if draw < AMBIGUOUS and possibly_ambiguous(ordered):
            goal, patience = "ambiguous", PATIENCE
        elif draw >= 1 - JOINT:
            goal, patience = "joint", PATIENCE
    pivot = goal is not None or rng.random() < PIVOT
    request = Request(clause, ordered, allowed, pivot, goal)
    best: tuple[int, Transition | None] = (-1, None)
    for attempt in range(max(ATTEMPTS, patience)):
        if attempt == patience and request.goal:  # from now on an ordinary case will do
            request.goal = None
            if best[0] == 1:  # (one that only missed the goal)
                break
        old = sample_base(clause, rng)
        steps = request.chain(old, rng)
        if steps is None:
            continue
        new = steps[-1][0]
        applied = [op for _, op in steps]
        score = request.score(cells(old, new), applied)
        if score > best[0]:
            best = (score, Transition(clause.unit_id, old, new, tuple(op.name for op in applied)))
        if best[0] == 2:
            break
    return best[1]
