"""Semi-naive forward chaining with minimal proof depths, and the verdict semantics.

Rules are grounded over the *domain* (entities of the facts plus constants of the rules); the
range restriction of :class:`~reasonbench.strata.logical.world.Rule` makes this exact. Chaining
then runs level by level: level k only looks at rules with a premise derived at level k-1
(the semi-naive delta), so an atom first appears at exactly its minimal derivation depth:
``depth(fact) = 0``, ``depth(a) = 1 + min over rule instances concluding a of max premise depth``.

Verdicts (authority is a jurisdiction gate, distinct from the norms):
``holds``  the query follows from the facts with the authorised rules;
``refer``  it does not, but would with the full rule set (a ruling needs a rule outside authority);
``fails``  it does not follow even with every rule (closed world).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from reasonbench.core.adjudicator import REFER
from reasonbench.strata.logical.world import VARIABLE, Atom, Authority, Facts, Rule, Rules

HOLDS = "holds"
FAILS = "fails"
LABELS: frozenset[str] = frozenset({HOLDS, FAILS, REFER})

Instance = tuple[int, tuple[Atom, ...], Atom]
"""A ground rule instance: (rule id, distinct premises, conclusion)."""


class Closure(NamedTuple):
    """Everything derivable: minimal depth per atom and, per derived atom, one shallowest step.

    (A named tuple: closures are built by the thousand per benchmark build.)
    """

    depth: dict[Atom, int]
    support: dict[Atom, Instance]
    atoms: frozenset[Atom]  # the keys of ``depth`` (set algebra reuses their stored hashes)
    # Derived views of this closure, computed on demand by their owners (e.g. qbits.QueryIndex).
    views: dict[object, Any]


def substitute(atom: Atom, entity: str) -> Atom:
    # Spelled out per arity: grounding is the hot path of a cold adjudication.
    if len(atom) == 2:
        return atom if atom[1] != VARIABLE else (atom[0], entity)
    pred, first, second = atom
    return (pred, entity if first == VARIABLE else first, entity if second == VARIABLE else second)


def ground_rule(rule: Rule, domain: tuple[str, ...]) -> tuple[Instance, ...]:
    """The ground instances of one rule over ``domain``, in entity order."""
    return ground_body(rule.id, rule.premises, rule.conclusion, domain)


def ground_body(
    rule_id: int, body: tuple[Atom, ...], head: Atom, domain: tuple[str, ...]
) -> tuple[Instance, ...]:
    """:func:`ground_rule` for a rule given by its parts (one not built yet)."""
    if VARIABLE not in head[1:]:  # a ground rule (range restriction: no X anywhere)
        return ((rule_id, body, head),)
    out: list[Instance] = []
    for entity in domain:
        premises = tuple([substitute(p, entity) for p in body])
        if len(premises) > 1 and len(set(premises)) < len(premises):
            premises = tuple(dict.fromkeys(premises))  # likes(X,bob), likes(bob,X) at X = bob
        out.append((rule_id, premises, substitute(head, entity)))
    return tuple(out)


# Cached per rule, not per rule set: the rule sets of old and new state share most rules.
_rule_instances = lru_cache(maxsize=16384)(ground_rule)
# Candidate rule edits recur from draw to draw (the same rules of a world get edited).
ground_edit = lru_cache(maxsize=2048)(ground_body)


@lru_cache(maxsize=512)
def instances(rules: Rules, domain: tuple[str, ...]) -> tuple[Instance, ...]:
    """All ground instances over ``domain``, in (rule id, entity) order."""
    return tuple(i for rule in rules.rules for i in _rule_instances(rule, domain))


class Program(NamedTuple):
    """Ground instances indexed by premise, so each derived atom wakes only its own rules."""

    instances: tuple[Instance, ...]
    waiting: tuple[int, ...]  # number of distinct premises per instance
    watch: dict[Atom, list[int]]  # read only
    by_rule: dict[int, tuple[Instance, ...]]


@lru_cache(maxsize=256)
def program(rules: Rules, domain: tuple[str, ...]) -> Program:
    by_rule = {rule.id: _rule_instances(rule, domain) for rule in rules.rules}
    ground = tuple(i for group in by_rule.values() for i in group)
    watch: dict[Atom, list[int]] = {}
    for index, (_, premises, _) in enumerate(ground):
        for atom in premises:
            if atom in watch:
                watch[atom].append(index)
            else:
                watch[atom] = [index]
    return Program(ground, tuple([len(i[1]) for i in ground]), watch, by_rule)


@lru_cache(maxsize=16384)
def _rule_constants(rule: Rule) -> frozenset[str]:
    return frozenset(rule.constants())


@lru_cache(maxsize=2048)
def _constants(rules: Rules) -> frozenset[str]:
    return frozenset().union(*map(_rule_constants, rules.rules))


@lru_cache(maxsize=1024)
def domain_of(facts: Facts, rules: Rules) -> tuple[str, ...]:
    """The entities grounding ranges over: those of the facts and the rules' constants."""
    terms = {t for atom in facts.atoms for t in atom[1:]}
    terms |= _constants(rules)
    return tuple(sorted(terms))


@lru_cache(maxsize=512)
def closure(facts: Facts, rules: Rules, authority: Authority | None = None) -> Closure:
    """Semi-naive closure of ``facts`` under ``rules``, or under the rules ``authority`` allows.

    Cached: the cells of a cube share closures. The authorised closure runs the program of the
    full rule set and lets only authorised instances fire, so all hybrids of one rule set share
    one grounding.
    """
    ground = program(rules, domain_of(facts, rules))
    allowed = None if authority is None else set(authority.allowed)
    depth = dict.fromkeys(facts.atoms, 0)
    support: dict[Atom, Instance] = {}
    waiting = list(ground.waiting)
    watch, ground_instances = ground.watch, ground.instances
    frontier: list[Atom] = list(facts.atoms)
    level = 0
    while frontier:
        level += 1
        fresh: list[Atom] = []
        for atom in frontier:
            for index in watch.get(atom, ()):
                waiting[index] -= 1
                if waiting[index] == 0:
                    instance = ground_instances[index]
                    if allowed is not None and instance[0] not in allowed:
                        continue
                    head = instance[2]
                    if head not in depth:
                        depth[head] = level
                        support[head] = instance
                        fresh.append(head)
        frontier = fresh
    return Closure(depth, support, frozenset(depth), {})


def derived(facts: Facts, rules: Rules, authority: Authority | None) -> Closure:
    """``closure(facts, rules, authority)``, keeping one cache entry per closure:
    ``closure(f, r)`` and ``closure(f, r, None)`` are distinct cache keys."""
    if authority is None:
        return closure(facts, rules)
    return closure(facts, rules, authority)


@lru_cache(maxsize=2048)
def authorised(rules: Rules, authority: Authority) -> Rules:
    """The rules the evaluator may apply."""
    return Rules(tuple(r for r in rules.rules if r.id in authority.allowed))


def verdict(facts: Facts, rules: Rules, authority: Authority, query: Atom) -> str:
    if query in closure(facts, rules, authority).depth:
        return HOLDS
    if query in closure(facts, rules).depth:
        return REFER
    return FAILS


def full_depth(facts: Facts, rules: Rules, query: Atom) -> int | None:
    """Minimal depth of ``query`` under the full rule set (mask ignored); ``None`` if underivable."""
    return closure(facts, rules).depth.get(query)


def proof(result: Closure, query: Atom) -> list[Instance]:
    """The shallowest derivation of ``query`` recorded in ``result``, premises before uses."""
    steps: list[Instance] = []
    _visit(query, result.support, set(), steps)
    return steps


def _visit(
    atom: Atom, support: dict[Atom, Instance], seen: set[Atom], steps: list[Instance]
) -> None:
    # A module-level function, not a closure: a nested function that calls itself is a
    # reference cycle, and thousands of proofs per build left the cyclic collector busy.
    if atom in seen or atom not in support:
        return
    seen.add(atom)
    instance = support[atom]
    for premise in instance[1]:
        _visit(premise, support, seen, steps)
    steps.append(instance)
