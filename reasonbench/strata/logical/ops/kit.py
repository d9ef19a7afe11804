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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import Instance, closure, derived, instances, proof
from reasonbench.strata.logical.ops.index import Firing, cone, firing, rule_index
from reasonbench.strata.logical.sampler import World
from reasonbench.strata.logical.world import Atom, Authority, Rules

T = TypeVar("T")
AIM = 0.75  # chance of preferring the target's cone
COMPLETE = 0.3  # chance of completing the target's derivation at once (else leave room for chains)
FOCUS = 0.5  # chance of preferring the focus of the composition
MATTERS = 0.7  # chance of preferring an edit that can change something


def pick(
    rng: random.Random, tiers: Sequence[tuple[float, Sequence[T]]], anything: Sequence[T]
) -> T | None:
    """Draw from the first non-empty tier that wins its coin flip, else from ``anything``."""
    for chance, pool in tiers:
        if pool and rng.random() < chance:
            return rng.choice(pool)
    return rng.choice(anything) if anything else None


def ordered(
    rng: random.Random, tiers: Sequence[tuple[float, Sequence[T]]], anything: Sequence[T]
) -> list[T]:
    """All of ``anything`` in preference order: winning tiers first (shuffled), then the rest."""
    out: list[T] = []
    for chance, pool in tiers:
        if pool and rng.random() < chance:
            out += rng.sample(list(pool), len(pool))
    return list(dict.fromkeys(out + rng.sample(list(anything), len(anything))))


def ground(world: World, rules: Rules) -> tuple[Instance, ...]:
    return instances(rules, world.entities)


def fired(world: World, state: EvaluatorState[Any], mask: Authority | None = None) -> Firing:
    """The ground instances of the state's rules (the authorised ones, under ``mask``) whose
    premises all hold with those same rules: their ids and premises."""
    return firing(state["G"], state["N"], world.entities, mask)


def core_ids(world: World, rules: Rules) -> tuple[int, ...]:
    """Ids of the core rules (those not concluding a sink), in id order."""
    return _core_ids(rules, world.sinks)


@lru_cache(maxsize=1024)
def _core_ids(rules: Rules, sinks: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(r.id for r in rules.rules if r.conclusion[0] not in sinks)


@dataclass(frozen=True)
class Aim:
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


@lru_cache(maxsize=256)
def aim(world: World, state: EvaluatorState[Any]) -> Aim:
    target = world.target
    if target is None:
        return Aim()
    facts, rules, mask = state["G"], state["N"], state["A"]
    reach = cone(rules, world.entities, target)
    # Completing premises under every rule, and under the authorised ones for authorised
    # instances (the latter turn a ``refer`` into ``holds``).
    full = closure(facts, rules).depth
    allowed = closure(facts, rules, mask).depth
    missing = [[p for p in i[1] if p not in full] for i in reach.instances]
    missing += [[p for p in i[1] if p not in allowed] for i in reach.instances if i[0] in mask]
    # Derivations in the base state too: a later operator aimed at what the base derivation
    # used acts independently of the earlier edit (either alone suffices: ambiguous receipts).
    steps: list[Instance] = []
    blocking: set[int] = set()
    for s in (state, world.state) if state != world.state else (state,):
        every = proof(closure(s["G"], s["N"]), target)
        steps += every + proof(closure(s["G"], s["N"], s["A"]), target)
        blocking.update(step[0] for step in every if step[0] not in s["A"])
    return Aim(
        reach.atoms,
        reach.rules,
        frozenset(m[0] for m in missing if len(m) == 1 and m[0] != target),
        frozenset(p for step in steps for p in step[1] if p in facts),
        frozenset(step[0] for step in steps),
        frozenset(blocking),
    )


@lru_cache(maxsize=256)
def focus(world: World, state: EvaluatorState[Any]) -> frozenset[Atom]:
    """Atoms whose derivability (with all rules or with authorised ones) earlier edits changed."""
    base = world.state
    if state == base:
        return frozenset()
    changed: frozenset[Atom] = frozenset()
    for under in (False, True):  # with every rule, then with the authorised ones
        before = derived(base["G"], base["N"], base["A"] if under else None).atoms
        after = derived(state["G"], state["N"], state["A"] if under else None).atoms
        changed |= before ^ after
    return changed


def rule_tiers(
    world: World,
    state: EvaluatorState[Any],
    eligible: Sequence[int],
    aimed: frozenset[int],
    firing: frozenset[int],
) -> list[tuple[float, list[int]]]:
    """Tiers over ``eligible`` rule ids: ``aimed`` first, then the target's cone, rules touched by
    earlier edits, and firing rules."""
    rules: Rules = state["N"]
    base = rule_index(world.state["N"], world.entities).by_id
    touched = {r.id for r in rules.rules if base.get(r.id) is not r and base.get(r.id) != r}
    mentions = rule_index(rules, world.entities).mentions
    for atom in focus(world, state):
        touched.update(mentions.get(atom, ()))
    in_cone = aim(world, state).rules
    return [
        (AIM, [i for i in eligible if i in aimed]),
        (AIM, [i for i in eligible if i in in_cone]),
        (FOCUS, [i for i in eligible if i in touched]),
        (MATTERS, [i for i in eligible if i in firing]),
    ]
