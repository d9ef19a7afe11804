"""Seeded sampling of worlds, the independent units of the logical stratum.

A world reserves a few entities, *core* properties (queryable, usable as premises), *sink*
properties and one relation. Sink properties are only ever concluded (never a premise, never a
query); they give deliberate no-op revisions something to touch that provably changes no verdict.

Depth comes from a *backbone*: a chain of rules ``b0(X) -> b1(X) -> ... -> bL(X)`` (some steps
need an extra premise, some are ground and hand the chain to another entity), with other
entities entering the chain part-way, so one world holds atoms at many proof depths. *Shadow*
rules give a backbone step a parallel, mostly unauthorised route (``holds`` with a ``refer``
fallback). Side rules add shortcuts and alternative derivations (sources of receipt ambiguity).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import closure
from reasonbench.strata.logical.unit import World
from reasonbench.strata.logical.vocabulary import Vocabulary
from reasonbench.strata.logical.world import VARIABLE as X
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rule, Rules


@dataclass(frozen=True)
class WorldShape:
    """Size ranges of a sampled world (inclusive)."""

    entities: tuple[int, int] = (3, 4)
    properties: tuple[int, int] = (6, 9)
    sinks: tuple[int, int] = (1, 2)
    facts: tuple[int, int] = (6, 14)
    rules: tuple[int, int] = (5, 12)
    chain: tuple[int, int] = (4, 8)  # backbone length: every world can host deep (>= 4) cases
    authorised: float = 0.75  # chance that a core rule starts authorised
    deep: int = 4  # every world derives some atom at least this deep (proof-depth shift)
    # the backbone chain, step by step
    hop: float = 0.15  # chance a step moves the chain to another entity (a ground rule)
    second_premise: float = 0.4  # chance a general step needs a second premise
    spare_premise: float = 0.6  # that premise is a spare property (else a relation atom)
    premise_given: float = 0.7  # the second premise is a fact (else the step is blocked)
    shadow_side_given: float = 0.8  # a shadow route's side premise is a fact
    sink_authorised: float = 0.5  # chance that a rule concluding a sink starts authorised
    # side rules: cumulative chances of a subject rule, a relation-premise rule, a rule
    # concluding a relation; the rest link two entities
    side_kinds: tuple[float, float, float] = (0.45, 0.65, 0.8)


DEFAULT_SHAPE = WorldShape()
SHADOW_AUTHORISED = 0.15
MAX_REDRAWS = 50


def _subject_atoms(
    world_props: list[str], rng: random.Random, n: int, avoid: set[str]
) -> list[Atom]:
    return [(p, X) for p in rng.sample([p for p in world_props if p not in avoid], n)]


def sample_world(
    rng: random.Random, vocab: Vocabulary, unit_id: str, shape: WorldShape = DEFAULT_SHAPE
) -> World:
    """A world whose base state derives some atom at depth >= ``shape.deep``, so that every
    world can host cases for the proof-depth shift (redrawn from the same RNG until it does)."""
    for _ in range(MAX_REDRAWS):
        world = _draw_world(rng, vocab, unit_id, shape)
        state = world.state
        if max(closure(state["G"], state["N"]).depth.values(), default=0) >= shape.deep:
            break
    return world


def _draw_world(rng: random.Random, vocab: Vocabulary, unit_id: str, shape: WorldShape) -> World:
    entities = rng.sample(vocab.entities, rng.randint(*shape.entities))
    n_core, n_sink = rng.randint(*shape.properties), rng.randint(*shape.sinks)
    props = rng.sample(vocab.properties, n_core + n_sink)
    core, sinks = props[:n_core], props[n_core:]
    relation = rng.choice(vocab.relations)
    n_rules = rng.randint(*shape.rules)
    n_sink_rules = min(n_sink, 2 if n_rules >= 9 else 1)
    n_core_rules = n_rules - n_sink_rules
    length = rng.randint(shape.chain[0], min(shape.chain[1], n_core_rules, n_core - 1))
    chain, spare = core[: length + 1], core[length + 1 :]

    bodies: list[tuple[tuple[Atom, ...], Atom]] = []
    essential: set[Atom] = {(chain[0], entities[0])}
    holder = entities[0]  # the entity the backbone currently runs on
    steps: list[tuple[str, str, str]] = []  # general backbone steps: (src, dst, holder)
    for src, dst in zip(chain, chain[1:], strict=False):
        if rng.random() < shape.hop:
            other = rng.choice([e for e in entities if e != holder])
            bodies.append((((src, holder),), (dst, other)))
            holder = other
            continue
        premises: list[Atom] = [(src, X)]
        if rng.random() < shape.second_premise:
            if spare and rng.random() < shape.spare_premise:
                extra: Atom = (rng.choice(spare), X)
            else:
                extra = (relation, X, rng.choice([e for e in entities if e != holder]))
            premises.append(extra)
            if rng.random() < shape.premise_given:  # else blocked: a missing ground to add
                essential.add(tuple(holder if t == X else t for t in extra))
        bodies.append((tuple(premises), (dst, X)))
        steps.append((src, dst, holder))

    # Shadows: a parallel, mostly unauthorised route for one backbone step (same depth). With
    # one, an edit of G, N or A alone can each turn the step's ``holds`` into ``refer``.
    shadows: list[tuple[tuple[Atom, ...], Atom]] = []
    for src, dst, at in rng.sample(
        steps, min(len(steps), rng.randint(0, 2), n_core_rules - len(bodies))
    ):
        side: Atom = (rng.choice(spare), X) if spare else (relation, X, rng.choice(entities))
        body: tuple[tuple[Atom, ...], Atom] = (((src, X), side), (dst, X))
        if side[-1] != X and side[-1] == at or body in bodies:
            continue
        bodies.append(body)
        shadows.append(body)
        if rng.random() < shape.shadow_side_given:
            essential.add(tuple(at if t == X else t for t in side))

    while len(bodies) < n_core_rules:
        body = _side_rule(rng, core, entities, relation, shape.side_kinds)
        if body not in bodies:
            bodies.append(body)
    for sink in rng.sample(sinks, n_sink_rules):
        bodies.append((tuple(_subject_atoms(core, rng, rng.randint(1, 2), set())), (sink, X)))

    order = list(range(len(bodies)))
    rng.shuffle(order)  # so rule ids carry no hint of the backbone order
    rules = [Rule(i + 1, *bodies[k]) for i, k in enumerate(order)]
    chance: dict[tuple[tuple[Atom, ...], Atom], float] = dict.fromkeys(shadows, SHADOW_AUTHORISED)
    chance.update((body, shape.sink_authorised) for body in bodies if body[1][0] in sinks)
    allowed = [r.id for r in rules if rng.random() < chance.get(r.body(), shape.authorised)]

    facts = _facts(rng, shape, essential, chain, core, sinks, entities, relation)
    state = EvaluatorState.of(G=facts, N=Rules.of(rules), A=Authority.of(allowed))
    return World(
        unit_id, tuple(sorted(entities)), tuple(sorted(core)), tuple(sorted(sinks)), relation, state
    )


def _side_rule(
    rng: random.Random,
    core: list[str],
    entities: list[str],
    relation: str,
    kinds: tuple[float, float, float],
) -> tuple[tuple[Atom, ...], Atom]:
    kind = rng.random()
    head = rng.choice(core)
    subject_rule, relation_premise, concludes_relation = kinds
    if kind < subject_rule:
        return tuple(_subject_atoms(core, rng, rng.randint(1, 2), {head})), (head, X)
    if kind < relation_premise:
        link: Atom = (relation, X, rng.choice(entities))
        extra = _subject_atoms(core, rng, rng.randint(0, 1), {head})
        return (link, *extra), (head, X)
    if kind < concludes_relation:
        target = rng.choice(entities)
        link = (relation, X, target) if rng.random() < 0.5 else (relation, target, X)
        return tuple(_subject_atoms(core, rng, 1, set())), link
    first, second = rng.choice(entities), rng.choice(entities)
    premise = (rng.choice([p for p in core if p != head or first != second]), first)
    return (premise,), (head, second)


def _facts(
    rng: random.Random,
    shape: WorldShape,
    essential: set[Atom],
    chain: list[str],
    core: list[str],
    sinks: list[str],
    entities: list[str],
    relation: str,
) -> Facts:
    atoms = set(essential)
    for entity in entities[1:]:
        if rng.random() < 0.5:  # enter the backbone part-way: shallower depths for this entity
            atoms.add((rng.choice(chain[:-1]), entity))
    pairs = [(relation, a, b) for a in entities for b in entities if a != b]
    atoms.update(rng.sample(pairs, rng.randint(1, 2)))
    if rng.random() < 0.3:
        atoms.add((rng.choice(sinks), rng.choice(entities)))
    target = rng.randint(*shape.facts)
    # Filler avoids the backbone beyond its start: a given b_i would shortcut the deep chain.
    filler = [p for p in core if p not in chain[1:]]
    pool = sorted(({(p, e) for p in filler for e in entities} | set(pairs)) - atoms)
    atoms.update(rng.sample(pool, max(0, min(len(pool), target - len(atoms)))))
    extra = sorted(atoms - essential)
    for atom in rng.sample(extra, max(0, min(len(extra), len(atoms) - shape.facts[1]))):
        atoms.discard(atom)  # entry points and links beyond the budget
    if len(atoms) < shape.facts[0]:  # tiny filler pool (long backbone): top up from anything
        rest = sorted({(p, e) for p in core for e in entities} - atoms)
        atoms.update(rng.sample(rest, shape.facts[0] - len(atoms)))
    return Facts.of(atoms)
