"""Norms operators: rules added, removed or edited (same id); one no-op (a rule into a sink)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import closure
from reasonbench.strata.logical.lookahead import Edit, moving
from reasonbench.strata.logical.ops.index import by_id
from reasonbench.strata.logical.ops.kit import (
    AIM,
    FOCUS,
    MATTERS,
    aim,
    core_ids,
    fired,
    focus,
    ordered,
    rule_tiers,
)
from reasonbench.strata.logical.unit import World, parts
from reasonbench.strata.logical.world import VARIABLE as X
from reasonbench.strata.logical.world import Atom, Rule, Rules, fresh_rule_id

Edits = Callable[[World, Rule], list[Edit]]
"""A rule's candidate edits, as unbuilt rules (only the chosen one is built and validated)."""


def _about(known: dict[Atom, int], world: World, entity: str) -> list[Atom]:
    """What is known of ``entity``, generalised to ``X`` (core properties and outgoing links)."""
    unary: list[Atom] = [(a[0], X) for a in known if a[1:] == (entity,) and a[0] not in world.sinks]
    links: list[Atom] = [
        (a[0], X, a[2]) for a in known if len(a) == 3 and a[1] == entity and a[2] != entity
    ]
    return sorted(unary + links)


def _sample(rng: random.Random, pool: list[Atom]) -> tuple[Atom, ...]:
    return tuple(rng.sample(pool, min(len(pool), rng.randint(1, 2))))


def _new_body(
    world: World, state: EvaluatorState[Any], rng: random.Random
) -> tuple[tuple[Atom, ...], Atom]:
    """Premises about ``X`` and a head that fire on some entity and conclude something about it.

    Aimed: the head is the target, generalised (a new or an alternative derivation of it).
    Focused: a premise is an atom an earlier edit changed (a chain through that edit).
    """
    facts, rules, _ = parts(state)
    known = closure(facts, rules).depth
    if world.target is not None and rng.random() < AIM:
        subject = world.target[1]
        head = (world.target[0], X, *world.target[2:])
        base = [
            a
            for a in _about(closure(parts(world.state)[0], rules).depth, world, subject)
            if a != head
        ]
        news = [a for a in _about(known, world, subject) if a != head and a not in base]
        # A premise that earlier edits made true chains the rule onto them (all needed); base
        # premises make it a derivation independent of them (either suffices).
        if news and rng.random() < 0.75:
            return (rng.choice(news), *rng.sample(base, min(len(base), rng.randint(0, 1)))), head
        if base:
            return _sample(rng, base), head
    near = sorted(
        a for a in focus(world, state) & known.keys() if len(a) == 2 and a[0] in world.properties
    )
    if near and rng.random() < FOCUS:
        pred, entity = rng.choice(near)
        heads = [p for p in world.properties if (p, entity) not in known]
        if heads:
            return ((pred, X),), (rng.choice(heads), X)
    if rng.random() < MATTERS:
        entity = rng.choice(world.entities)
        heads = [p for p in world.properties if (p, entity) not in known]
        about = _about(known, world, entity)
        if about and heads:
            return _sample(rng, about), (rng.choice(heads), X)
    name = rng.choice(world.properties)
    return _sample(rng, [(p, X) for p in world.properties if p != name]), (name, X)


def add_rule(world: World, state: EvaluatorState[Any], rng: random.Random) -> Rules | None:
    """Add a general rule under a fresh id (unauthorised until the mask says otherwise)."""
    _, rules, mask = parts(state)
    premises, head = _new_body(world, state, rng)
    if head in premises or any(r.body() == (premises, head) for r in rules.rules):
        return None
    return rules.put(Rule(fresh_rule_id(rules, mask), premises, head))


def rewrite_rule(world: World, state: EvaluatorState[Any], rng: random.Random) -> Rules | None:
    """Give an existing core rule a new body under its id: authority over the id carries over."""
    rules = parts(state)[1]
    premises, head = _new_body(world, state, rng)
    if head in premises or any(r.body() == (premises, head) for r in rules.rules):
        return None
    options = [(r.id, premises, head) for r in _targets(world, state, rng)[:4]]
    edit = _pick_edit(world, state, rng, options)
    return None if edit is None else rules.put(Rule(*edit))


def _targets(world: World, state: EvaluatorState[Any], rng: random.Random) -> list[Rule]:
    """Core rules in preference order: aimed, focused, firing, then the rest."""
    rules = parts(state)[1]
    ids = list(core_ids(world, rules))
    tiers = rule_tiers(
        world, state, ids, aim(world, state).proof_rules, lambda: fired(world, state).ids
    )
    rule = by_id(rules)
    return [rule[i] for i in ordered(rng, tiers, ids)]


def remove_rule(world: World, state: EvaluatorState[Any], rng: random.Random) -> Rules | None:
    targets = _targets(world, state, rng)
    return parts(state)[1].remove(targets[0].id) if targets else None


def edit_operator(
    edits: Edits,
) -> Callable[[World, EvaluatorState[Any], random.Random], Rules | None]:
    """An operator replacing one core rule by one of its ``edits`` (same id: its mask entry follows)."""

    def apply(world: World, state: EvaluatorState[Any], rng: random.Random) -> Rules | None:
        # Edits are enumerated rule by rule, not all at once, so sampling stays cheap per case.
        for rule in _targets(world, state, rng):
            options = edits(world, rule)
            if options:
                edit = _pick_edit(world, state, rng, options)
                return None if edit is None else parts(state)[1].put(Rule(*edit))
        return None

    return apply


def _pick_edit(
    world: World, state: EvaluatorState[Any], rng: random.Random, options: list[Edit]
) -> Edit | None:
    """``pick`` with one tier, the edits that change the target's verdict (a one-rule
    lookahead), computed only as far as needed: whether there is one, then all of them if the
    tier wins its coin flip."""
    target = world.target
    movers = iter(()) if target is None else moving(*parts(state), target, options)
    first = next(movers, None)
    if first is not None and rng.random() < AIM:
        return rng.choice([first, *movers])
    return rng.choice(options) if options else None


def replace_premise(world: World, rule: Rule) -> list[Edit]:
    out = []
    for i, (pred, *terms) in enumerate(rule.premises):
        for new in world.properties:
            atom = (new, *terms)
            if (
                len(terms) == 1
                and new != pred
                and atom not in rule.premises
                and atom != rule.conclusion
            ):
                premises = (*rule.premises[:i], atom, *rule.premises[i + 1 :])
                out.append((rule.id, premises, rule.conclusion))
    return out


def replace_conclusion(world: World, rule: Rule) -> list[Edit]:
    pred, *terms = rule.conclusion
    if len(terms) != 1:
        return []
    heads = [(p, *terms) for p in world.properties if p != pred]
    return [(rule.id, rule.premises, h) for h in heads if h not in rule.premises]


def drop_premise(world: World, rule: Rule) -> list[Edit]:
    out = []
    for i in range(len(rule.premises) if len(rule.premises) > 1 else 0):
        rest = (*rule.premises[:i], *rule.premises[i + 1 :])
        if not rule.general or any(X in p[1:] for p in rest):  # keep the range restriction
            out.append((rule.id, rest, rule.conclusion))
    return out


def add_premise(world: World, rule: Rule) -> list[Edit]:
    if len(rule.premises) >= 3:
        return []
    term = X if rule.general else rule.premises[0][-1]
    new = [(p, term) for p in world.properties]
    new = [a for a in new if a not in rule.premises and a != rule.conclusion]
    return [(rule.id, (*rule.premises, a), rule.conclusion) for a in new]


def add_inert_rule(world: World, state: EvaluatorState[Any], rng: random.Random) -> Rules | None:
    """No-op: a rule concluding a sink property (never a premise, never queried)."""
    _, rules, mask = parts(state)
    props = rng.sample(world.properties, rng.randint(1, 2))
    head = (rng.choice(world.sinks), X)
    return rules.put(Rule(fresh_rule_id(rules, mask), tuple((p, X) for p in props), head))
