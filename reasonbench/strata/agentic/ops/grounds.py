"""Grounds operators: what the agent knows changes (tools run, retracted, re-read; text planted).

Each returns the revised :class:`Grounds` or ``None`` when it does not apply. ``inject`` is the
no-op: it plants untrusted content shaped for quarantine (it asserts only supports from itself
and attacks, and the operator's "data are not commands" rule attacks it), at an anchor within
Q3's bound under the state's authority, and only when Q1-Q3 hold, so by Theorem 4 it changes no
decision of the state it revises; the sampler still verifies inertness of composed revisions.
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.are.cases import Injection
from reasonbench.are.quarantine import check_quarantine
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.adjudicator import deliberation
from reasonbench.strata.agentic.components import Authority, Grounds, Norms
from reasonbench.strata.agentic.control import q3_bound, tempered
from reasonbench.strata.agentic.units import AgenticUnit, extras, grounds_for


def _current(state: EvaluatorState[Any]) -> Grounds:
    grounds = state["G"]
    assert isinstance(grounds, Grounds)
    return grounds


def _rebuild(unit: AgenticUnit, grounds: Grounds, observed: tuple[tuple[str, str], ...]) -> Grounds:
    claims, asserted = extras(unit.family, grounds)
    return grounds_for(unit.family, observed, claims, asserted)


def run_tool(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Grounds | None:
    """Run a tool not yet run: its outcome in the unit's environment joins the grounds."""
    grounds = _current(state)
    done = {t for t, _ in grounds.observed}
    todo = [p for p in unit.environment.outcomes if p[0] not in done]
    if not todo:
        return None
    return _rebuild(unit, grounds, (*grounds.observed, rng.choice(todo)))


def retract_tool(
    unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random
) -> Grounds | None:
    """A tool's result is withdrawn (e.g. the record was the wrong order): its claims leave."""
    grounds = _current(state)
    if not grounds.observed:
        return None
    gone = rng.choice(grounds.observed)
    return _rebuild(unit, grounds, tuple(p for p in grounds.observed if p != gone))


def flip_outcome(
    unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random
) -> Grounds | None:
    """A tool re-run returns another of its outcomes (the photo shows damage after all)."""
    grounds = _current(state)
    family = unit.family
    options = [
        (tool, outcome) for tool, outcome in grounds.observed if len(family.tool(tool).outcomes) > 1
    ]
    if not options:
        return None
    tool, outcome = rng.choice(options)
    other = rng.choice([o.name for o in family.tool(tool).outcomes if o.name != outcome])
    observed = tuple((t, other if t == tool else o) for t, o in grounds.observed)
    return _rebuild(unit, grounds, observed)


def _planted(grounds: Grounds, injection: Injection) -> Grounds:
    return Grounds(
        (*grounds.claims, injection.claim),
        (*grounds.asserted, *injection.asserts),
        grounds.findings,
        grounds.observed,
    )


def inject(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Grounds | None:
    """Planted untrusted text (no-op by quarantine): one of the family's injections, entering
    below Q3's bound where the authority trusts untrusted text more than the defence outweighs
    (as the quarantine control does); ``None`` unless Q1-Q3 then hold against this state."""
    grounds = _current(state)
    present = {c.id for c in grounds.claims}
    options = [i for i in unit.family.injections if i.claim.id not in present]
    if not options:
        return None
    chosen = rng.choice(options)
    norms, authority, actions = state["N"], state["A"], unit.family.actions
    assert isinstance(norms, Norms) and isinstance(authority, Authority)
    planted = deliberation(_planted(grounds, chosen), norms, authority, actions)
    bound = q3_bound(planted, chosen.claim.id)
    if bound is None:
        return None
    revised = _planted(grounds, tempered(chosen, bound))
    base = deliberation(grounds, norms, authority, actions)
    if not check_quarantine(base, deliberation(revised, norms, authority, actions)).holds:
        return None
    return revised
