"""Shared helpers of the operators: tiered biased choice and what an edit should aim at.

Uniformly random edits of a small world mostly touch nothing, so every operator draws from
preference tiers before falling back on any applicable edit:

1. the case's target atom (``World.target``): the facts and rules of its shallowest
   derivations (in the current and in the base state), then its *cone* (atoms and rules from
   which it can be derived), so that the edits of several sources meet on one derivation;
2. the *focus* of the composition (operators run G, then N, then A): atoms whose status the
   earlier operators changed, and rules they added or edited (chains: size-2/3 receipts);
3. edits that can matter at all (a missing premise, a rule that fires).

Each tier is taken with its own probability, so every applicable edit keeps a chance; the tiers
only read the state, and every operator still writes its own source alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import Instance, closure, instances, proof
from reasonbench.strata.logical.ops.index import Firing, by_id, cone, firing, mentions
from reasonbench.strata.logical.unit import World, parts, per_world
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rules

T = TypeVar("T")
AIM = 0.75  # chance of preferring the target's cone
COMPLETE = 0.3  # chance of completing the target's derivation at once (else leave room for chains)
FOCUS = 0.5  # chance of preferring the focus of the composition
MATTERS = 0.7  # chance of preferring an edit that can change something


Pool = Sequence[T] | Callable[[], Sequence[T]]
"""A tier's members, or a function computing them: a tier is only computed when it is reached
(its members never depend on the RNG, so laziness changes no draw)."""


def _members(pool: Pool[T]) -> Sequence[T]:
    return pool() if callable(pool) else pool


def pick(rng: random.Random, tiers: Iterable[tuple[float, Pool[T]]], anything: Pool[T]) -> T | None:
    """Draw from the first non-empty tier that wins its coin flip, else from ``anything``."""
    for chance, pool in tiers:
        members = _members(pool)
        if members and rng.random() < chance:
            return rng.choice(members)
    members = _members(anything)
    return rng.choice(members) if members else None


def ordered(
    rng: random.Random, tiers: Iterable[tuple[float, Pool[T]]], anything: Sequence[T]
) -> list[T]:
    """All of ``anything`` in preference order: winning tiers first (shuffled), then the rest."""
    out: list[T] = []
    for chance, pool in tiers:
        members = _members(pool)
        if members and rng.random() < chance:
            out += rng.sample(list(members), len(members))
    return list(dict.fromkeys(out + rng.sample(list(anything), len(anything))))


def ground(world: World, rules: Rules) -> tuple[Instance, ...]:
    return instances(rules, world.entities)


V = TypeVar("V")


def per_draw(
    world: World,
    state: EvaluatorState[Any],
    name: str,
    compute: Callable[[World, EvaluatorState[Any]], V],
) -> V:
    """``compute(world, state)``, memoised on the draw's aimed world (keyed by the identity of
    ``state``, which the memo keeps alive): operators ask the same questions of the same few
    states, and this spares hashing worlds and states into global caches."""
    key = (name, id(state))
    found = world.memo.get(key)
    if found is None or found[0] is not state:
        found = world.memo[key] = (state, compute(world, state))
    value: V = found[1]
    return value


def fired(world: World, state: EvaluatorState[Any], mask: Authority | None = None) -> Firing:
    """The ground instances of the state's rules (the authorised ones, under ``mask``) whose
    premises all hold with those same rules: their ids and premises."""
    facts, rules, _ = parts(state)
    return firing(facts, rules, world.entities, mask)


def core_ids(world: World, rules: Rules) -> tuple[int, ...]:
    """Ids of the core rules (those not concluding a sink), in id order."""
    return _core_ids(rules, world.sinks)


@lru_cache(maxsize=1024)
def _core_ids(rules: Rules, sinks: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(r.id for r in rules.rules if r.conclusion[0] not in sinks)


class Aim(NamedTuple):
    """What an edit aimed at ``World.target`` should touch, in the current state.

    ``atoms``/``rules``: the target's cone (everything it can be derived from, by backward
    reachability over ground instances). ``completing``: missing premises that alone would
    complete an instance in the cone. ``proof_facts``/``proof_rules``: the facts and rules of
    the target's shallowest derivations (with every rule, and with the authorised ones).
    ``blocking``: the unauthorised rules of its derivation with every rule.
    """

    atoms: frozenset[Atom] = frozenset()
    rules: frozenset[int] = frozenset()
    completing: frozenset[Atom] = frozenset()
    proof_facts: frozenset[Atom] = frozenset()
    proof_rules: frozenset[int] = frozenset()
    blocking: frozenset[int] = frozenset()


def aim(world: World, state: EvaluatorState[Any]) -> Aim:
    return per_draw(world, state, "aim", _aim)


def _aim(world: World, state: EvaluatorState[Any]) -> Aim:
    target = world.target
    if target is None:
        return Aim()
    facts, rules, mask = parts(state)
    own = _aimed(facts, rules, mask, world.entities, target)
    steps, blocking = own.steps, own.blocking
    # Derivations in the base state too: a later operator aimed at what the base derivation
    # used acts independently of the earlier edit (either alone suffices: ambiguous receipts).
    if state.components != world.state.components:
        base = per_world(
            world, ("aimed", target), lambda w: _aimed(*parts(w.state), w.entities, target)
        )
        steps, blocking = steps + base.steps, blocking | base.blocking
    present = frozenset(facts.atoms)
    return Aim(
        own.atoms,
        own.rules,
        own.completing,
        frozenset(p for step in steps for p in step[1] if p in present),
        frozenset(step[0] for step in steps),
        blocking,
    )


class _Aimed(NamedTuple):
    """What :class:`Aim` takes from one state: the cone, the completing premises, the steps of
    the shallowest derivations and the unauthorised rules of the one with every rule."""

    atoms: frozenset[Atom]
    rules: frozenset[int]
    completing: frozenset[Atom]
    steps: tuple[Instance, ...]
    blocking: frozenset[int]


@lru_cache(maxsize=1024)
def _aimed(
    facts: Facts, rules: Rules, mask: Authority, entities: tuple[str, ...], target: Atom
) -> _Aimed:
    reach = cone(rules, entities, target)
    # Completing premises under every rule, and under the authorised ones for authorised
    # instances (the latter turn a ``refer`` into ``holds``).
    full = closure(facts, rules)
    allowed, granted = closure(facts, rules, mask), mask.allowed
    missing = [[p for p in i[1] if p not in full.atoms] for i in reach.instances]
    missing += [
        [p for p in i[1] if p not in allowed.atoms] for i in reach.instances if i[0] in granted
    ]
    every = proof(full, target)
    return _Aimed(
        reach.atoms,
        reach.rules,
        frozenset(m[0] for m in missing if len(m) == 1 and m[0] != target),
        (*every, *proof(allowed, target)),
        frozenset(step[0] for step in every if step[0] not in granted),
    )


def focus(world: World, state: EvaluatorState[Any]) -> frozenset[Atom]:
    """Atoms whose derivability (with all rules or with authorised ones) earlier edits changed."""
    return per_draw(world, state, "focus", _focus)


def _focus(world: World, state: EvaluatorState[Any]) -> frozenset[Atom]:
    if state.components == world.state.components:
        return frozenset()
    (g0, n0, a0), (g1, n1, a1) = parts(world.state), parts(state)
    # With every rule, then with the authorised ones.
    return (closure(g0, n0).atoms ^ closure(g1, n1).atoms) | (
        closure(g0, n0, a0).atoms ^ closure(g1, n1, a1).atoms
    )


def rule_tiers(
    world: World,
    state: EvaluatorState[Any],
    eligible: Sequence[int],
    aimed: frozenset[int],
    firing: Callable[[], frozenset[int]],
) -> list[tuple[float, Pool[int]]]:
    """Tiers over ``eligible`` rule ids: ``aimed`` first, then the target's cone, rules touched by
    earlier edits, and firing rules (each computed only if reached)."""
    return [
        (AIM, _among(eligible, aimed)),
        (AIM, lambda: _among(eligible, aim(world, state).rules)),
        (FOCUS, lambda: _among(eligible, _touched(world, state))),
        (MATTERS, lambda: _among(eligible, firing())),
    ]


def _among(ids: Sequence[int], members: AbstractSet[int]) -> list[int]:
    return [i for i in ids if i in members]


def _touched(world: World, state: EvaluatorState[Any]) -> set[int]:
    """Rules that earlier edits added or edited, or that mention an atom they moved."""
    rules = parts(state)[1]
    base = per_world(world, "rules by id", lambda w: by_id(parts(w.state)[1]))
    touched = {r.id for r in rules.rules if base.get(r.id) is not r and base.get(r.id) != r}
    near = focus(world, state)
    if near:
        mentioned = mentions(rules, world.entities)
        for atom in near:
            touched.update(mentioned.get(atom, ()))
    return touched
