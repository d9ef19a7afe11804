"""Authority operators: mask entries toggled (grant, revoke, swap); one no-op (a sink rule)."""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.ops.kit import aim, core_ids, fired, pick, rule_tiers
from reasonbench.strata.logical.unit import World, parts
from reasonbench.strata.logical.world import Authority


def _choose(
    world: World, state: EvaluatorState[Any], rng: random.Random, granted: bool
) -> int | None:
    """A core rule whose mask entry is ``granted``, to be toggled.

    A grant matters for a rule that fires with every rule; a revocation for one that fires
    under the current authority.
    """
    _, rules, mask = parts(state)
    allowed = mask.allowed
    ids = [i for i in core_ids(world, rules) if (i in allowed) == granted]
    aimed = aim(world, state)
    # Granting a rule that blocks the target's derivation, or revoking one its authorised
    # derivation uses, changes the target's verdict.
    first = aimed.proof_rules if granted else aimed.blocking

    def firing() -> frozenset[int]:
        return fired(world, state, mask if granted else None).ids

    return pick(rng, rule_tiers(world, state, ids, first, firing), ids)


def grant(world: World, state: EvaluatorState[Any], rng: random.Random) -> Authority | None:
    rule_id = _choose(world, state, rng, granted=False)
    return None if rule_id is None else parts(state)[2].toggle(rule_id)


def revoke(world: World, state: EvaluatorState[Any], rng: random.Random) -> Authority | None:
    rule_id = _choose(world, state, rng, granted=True)
    return None if rule_id is None else parts(state)[2].toggle(rule_id)


def swap(world: World, state: EvaluatorState[Any], rng: random.Random) -> Authority | None:
    """Move authority from one rule to another (two mask entries toggled)."""
    out, into = _choose(world, state, rng, granted=True), _choose(world, state, rng, granted=False)
    return None if out is None or into is None else parts(state)[2].toggle(out).toggle(into)


def toggle_inert(world: World, state: EvaluatorState[Any], rng: random.Random) -> Authority | None:
    """No-op: toggle the entry of a rule concluding a sink property."""
    _, rules, mask = parts(state)
    rule_id = pick(rng, [], [r.id for r in rules.rules if not world.is_core(r)])
    return None if rule_id is None else mask.toggle(rule_id)
