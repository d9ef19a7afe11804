"""Norms operators: the operator's policy or the agent's reading of it changes.

Each returns the revised :class:`Norms` or ``None``. ``inert_principle`` is the no-op: a
principle no relation mentions only shifts the energy by a constant (its own status follows its
anchor), so no decision, margin or oversight quantity can change.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from reasonbench.are.specs import STRENGTHS
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.components import Norms
from reasonbench.strata.agentic.units import AgenticUnit


def _current(state: EvaluatorState[Any]) -> Norms:
    norms = state["N"]
    assert isinstance(norms, Norms)
    return norms


def add_relation(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Norms | None:
    """The agent (or operator) comes to see one more reason: an optional relation joins."""
    norms = _current(state)
    options = [r for r in unit.family.optional_relations if r not in norms.relations]
    if not options:
        return None
    return replace(norms, relations=(*norms.relations, rng.choice(options)))


def drop_relation(
    unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random
) -> Norms | None:
    """The agent drops one of its own readings (a relation it asserted)."""
    norms = _current(state)
    options = [k for k, r in enumerate(norms.relations) if r.channel == "agent"]
    if not options:
        return None
    k = rng.choice(options)
    return replace(norms, relations=norms.relations[:k] + norms.relations[k + 1 :])


def restrength(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Norms | None:
    """One relation moves one step on the strength rubric (up or down)."""
    norms = _current(state)
    if not norms.relations:
        return None
    k = rng.randrange(len(norms.relations))
    r = norms.relations[k]
    step = STRENGTHS.index(r.strength) + rng.choice((-1, 1))
    if not 0 <= step < len(STRENGTHS):
        step = STRENGTHS.index(r.strength) - (step - STRENGTHS.index(r.strength))
    moved = replace(r, strength=STRENGTHS[step])
    return replace(norms, relations=(*norms.relations[:k], moved, *norms.relations[k + 1 :]))


def restance(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Norms | None:
    """The institution's emphasis changes: another priority stance of the family."""
    norms = _current(state)
    options = [
        tuple(p for p in eta if p[1] != 1.0)
        for _, eta in unit.family.stances
        if tuple(p for p in eta if p[1] != 1.0) != norms.priorities
    ]
    if not options:
        return None
    return replace(norms, priorities=rng.choice(options))


def prohibit(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Norms | None:
    """A hard prohibition (h, a) is imposed, or lifted if already in force."""
    norms = _current(state)
    options = sorted(set(unit.family.optional_prohibitions) | set(norms.prohibitions))
    if not options:
        return None
    pair = rng.choice(options)
    if pair in norms.prohibitions:
        return replace(norms, prohibitions=tuple(p for p in norms.prohibitions if p != pair))
    return replace(norms, prohibitions=(*norms.prohibitions, pair))


def toggle_hard(unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random) -> Norms | None:
    """A claim becomes non-negotiable (accepted), or stops being so."""
    norms = _current(state)
    if not unit.family.hard_candidates:
        return None
    claim = rng.choice(unit.family.hard_candidates)
    hard = dict(norms.non_negotiable)
    if claim in hard:
        del hard[claim]
    else:
        hard[claim] = 1
    return replace(norms, non_negotiable=tuple(sorted(hard.items())))


def inert_principle(
    unit: AgenticUnit, state: EvaluatorState[Any], rng: random.Random
) -> Norms | None:
    """A principle that bears on nothing here joins the policy (no-op)."""
    norms = _current(state)
    present = {c.id for c in norms.claims}
    options = [c for c in unit.family.distractors if c.kind == "P" and c.id not in present]
    if not options:
        return None
    return replace(norms, claims=(*norms.claims, rng.choice(options)))
