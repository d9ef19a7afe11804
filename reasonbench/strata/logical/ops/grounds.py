"""Grounds operators: facts added, removed or re-targeted; one no-op (a fact no rule reads)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import closure
from reasonbench.strata.logical.ops.index import premises
from reasonbench.strata.logical.ops.kit import (
    AIM,
    COMPLETE,
    FOCUS,
    MATTERS,
    Pool,
    aim,
    fired,
    focus,
    pick,
)
from reasonbench.strata.logical.unit import World, parts
from reasonbench.strata.logical.world import Atom, Facts


def add_fact(world: World, state: EvaluatorState[Any], rng: random.Random) -> Facts | None:
    """Add a fact: preferably one completing a derivation of the target, or news about the
    target's subject (material a later rule edit can chain on), or a premise a rule misses."""
    facts, rules, _ = parts(state)
    known = closure(facts, rules).atoms
    aimed = aim(world, state)
    subject = world.target[1] if world.target else None

    @cache
    def missing() -> list[Atom]:
        return sorted(premises(rules, world.entities) - known)

    def news() -> list[Atom]:
        # News outside the target's cone cannot reach the target through the current rules:
        # only a rule added or edited later can chain on it.
        old = known | aimed.atoms
        return [a for a in world.queryable() if a[1] == subject and a not in old]

    tiers: list[tuple[float, Pool[Atom]]] = [
        (COMPLETE, sorted(aimed.completing)),
        (AIM, news),
        (AIM, lambda: [a for a in missing() if a in aimed.atoms]),
        (FOCUS, lambda: [a for a in missing() if a in focus(world, state)]),
        (MATTERS, missing),
    ]
    atom = pick(rng, tiers, lambda: [a for a in world.queryable() if a not in facts.atoms])
    return None if atom is None else facts.add(atom)


def remove_fact(world: World, state: EvaluatorState[Any], rng: random.Random) -> Facts | None:
    """Remove a (non-sink) fact, preferably one a firing rule (towards the target) uses."""
    facts = parts(state)[0]
    core = [a for a in facts.atoms if a[0] not in world.sinks]
    aimed = aim(world, state)
    tiers: list[tuple[float, Pool[Atom]]] = [
        (AIM, [a for a in core if a in aimed.proof_facts]),
        (MATTERS, lambda: [a for a in core if a in fired(world, state).premises]),
    ]
    atom = pick(rng, tiers, core)
    return None if atom is None else facts.remove(atom)


def move_fact(world: World, state: EvaluatorState[Any], rng: random.Random) -> Facts | None:
    """Re-target a fact to another entity: ``p(a)`` becomes ``p(b)`` (an edit of the grounds)."""
    facts = parts(state)[0]
    moves: list[tuple[Atom, Atom]] = []
    for atom in facts.atoms:
        if atom[0] in world.sinks:
            continue
        for entity in world.entities:
            moved = (*atom[:-1], entity)
            if entity != atom[-1] and moved not in facts and len(set(moved[1:])) == len(moved) - 1:
                moves.append((atom, moved))
    aimed = aim(world, state)
    tiers = [
        (AIM, [m for m in moves if m[0] in aimed.proof_facts or m[1] in aimed.completing]),
        (AIM, [m for m in moves if m[0] in aimed.atoms or m[1] in aimed.atoms]),
    ]
    choice = pick(rng, tiers, moves)
    return None if choice is None else facts.remove(choice[0]).add(choice[1])


def add_inert_fact(world: World, state: EvaluatorState[Any], rng: random.Random) -> Facts | None:
    """No-op: a sink-property fact; sinks are never premises, so no verdict can move."""
    facts = parts(state)[0]
    pool = [(s, e) for s in world.sinks for e in world.entities if (s, e) not in facts.atoms]
    atom = pick(rng, [], pool)
    return None if atom is None else facts.add(atom)
