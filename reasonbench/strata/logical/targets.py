"""What a case's revision is aimed at: a target atom the operators converge on.

Operators read ``World.target`` (see ops/kit.py). The target is drawn before the first
operator and, when an edit misses it entirely, re-aimed at an atom that edit did move, so
the edits of a multi-source revision meet on one atom: either edit alone sufficing gives an
ambiguous receipt, both being needed gives a receipt of size 2 or 3.
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.adjudicator import REFER
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import closure, instances, verdict
from reasonbench.strata.logical.sampler import World
from reasonbench.strata.logical.world import Atom

REFER_TARGET_WEIGHT = 4.0  # with A among the sources, favour targets that are ``refer``


def choose_target(world: World, rng: random.Random, sources: tuple[str, ...]) -> Atom:
    """An atom some rule concludes and that is not a given fact.

    With authority among the changed sources, ``refer`` atoms are favoured: only between
    ``refer`` and ``holds`` can a mask edit alone move a verdict.
    """
    facts, rules, mask = world.state["G"], world.state["N"], world.state["A"]
    open_atoms = set(world.queryable()) - set(facts.atoms)
    heads = sorted({i[2] for i in instances(rules, world.entities)} & open_atoms)
    if not heads:
        return rng.choice(sorted(open_atoms))
    boost = REFER_TARGET_WEIGHT if "A" in sources else 1.0
    weights = [boost if verdict(facts, rules, mask, h) == REFER else 1.0 for h in heads]
    return rng.choices(heads, weights=weights)[0]


def reaim(world: World, state: EvaluatorState[Any], rng: random.Random) -> World:
    """After an edit that missed the target entirely, aim at an atom it did move, if any.

    An edit that moved something about the target's subject keeps the aim: it may be the
    first link of a chain that a later rule edit completes.
    """
    target = world.target
    if target is None:
        return world
    before, after = _derivable(world.state), _derivable(state)
    # A verdict is fixed by (derivable under authority, derivable at all): compare those.
    moved = [
        a
        for a in world.queryable()
        if any((a in b) != (a in c) for b, c in zip(before, after, strict=True))
    ]
    if not moved or any(a[1] == target[1] for a in moved):
        return world
    return world.aim(rng.choice(moved))


def _derivable(state: EvaluatorState[Any]) -> tuple[dict[Atom, int], dict[Atom, int]]:
    facts, rules = state["G"], state["N"]
    return closure(facts, rules, state["A"]).depth, closure(facts, rules).depth
