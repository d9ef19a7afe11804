"""What a case's revision is aimed at: a target atom the operators converge on.

Operators read ``World.target`` (see ops/kit.py). The target is drawn before the first
operator and, when an edit misses it entirely, re-aimed at an atom that edit did move, so
the edits of a multi-source revision meet on one atom: either edit alone sufficing gives an
ambiguous receipt, both being needed gives a receipt of size 2 or 3.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from reasonbench.core.adjudicator import REFER
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import instances, verdict
from reasonbench.strata.logical.qbits import query_index
from reasonbench.strata.logical.unit import World, parts, per_world
from reasonbench.strata.logical.world import Atom

REFER_TARGET_WEIGHT = 4.0  # with A among the sources, favour targets that are ``refer``


def choose_target(world: World, rng: random.Random, sources: tuple[str, ...]) -> Atom:
    """An atom some rule concludes and that is not a given fact.

    With authority among the changed sources, ``refer`` atoms are favoured: only between
    ``refer`` and ``holds`` can a mask edit alone move a verdict.
    """
    pool = per_world(world, "targets", _target_pool)
    if not pool.heads:
        return rng.choice(pool.fallback)
    return rng.choices(pool.heads, weights=pool.boosted if "A" in sources else pool.plain)[0]


class _Targets(NamedTuple):
    heads: tuple[Atom, ...]  # concluded by some rule, not a given fact (sorted)
    boosted: tuple[float, ...]  # weights with authority among the changed sources
    plain: tuple[float, ...]  # weights without
    fallback: tuple[Atom, ...]  # the open atoms, when no rule concludes any


def _target_pool(world: World) -> _Targets:
    """The candidate targets of a world's base state (the same for every draw)."""
    facts, rules, mask = parts(world.state)
    open_atoms = set(world.queryable()) - set(facts.atoms)
    heads = tuple(sorted({i[2] for i in instances(rules, world.entities)} & open_atoms))
    if not heads:
        return _Targets((), (), (), tuple(sorted(open_atoms)))
    refer = [verdict(facts, rules, mask, h) == REFER for h in heads]
    boosted = tuple(REFER_TARGET_WEIGHT if r else 1.0 for r in refer)
    return _Targets(heads, boosted, (1.0,) * len(heads), ())


def reaim(world: World, state: EvaluatorState[Any], rng: random.Random) -> World:
    """After an edit that missed the target entirely, aim at an atom it did move, if any.

    An edit that moved something about the target's subject keeps the aim: it may be the
    first link of a chain that a later rule edit completes.
    """
    target = world.target
    if target is None:
        return world
    index = query_index(world)
    moved = index.members(index.moved(world.state, state))  # in queryable order
    if not moved or any(a[1] == target[1] for a in moved):
        return world
    return world.aim(rng.choice(moved))
