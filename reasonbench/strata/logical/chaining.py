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

from dataclasses import dataclass
from functools import lru_cache

from reasonbench.core.adjudicator import REFER
from reasonbench.strata.logical.world import VARIABLE, Atom, Authority, Facts, Rule, Rules

HOLDS = "holds"
FAILS = "fails"
LABELS: frozenset[str] = frozenset({HOLDS, FAILS, REFER})

Instance = tuple[int, tuple[Atom, ...], Atom]
"""A ground rule instance: (rule id, distinct premises, conclusion)."""


@dataclass(frozen=True)
class Closure:
    """Everything derivable: minimal depth per atom and, per derived atom, one shallowest step."""

    depth: dict[Atom, int]
    support: dict[Atom, Instance]


def substitute(atom: Atom, entity: str) -> Atom:
    # Spelled out per arity: grounding is the hot path of a cold adjudication.
    if len(atom) == 2:
        return atom if atom[1] != VARIABLE else (atom[0], entity)
    pred, first, second = atom
    return (pred, entity if first == VARIABLE else first, entity if second == VARIABLE else second)


@lru_cache(maxsize=16384)
def _rule_instances(rule: Rule, domain: tuple[str, ...]) -> tuple[Instance, ...]:
    # Cached per rule, not per rule set: the rule sets of old and new state share most rules.
    if not rule.general:
        return ((rule.id, rule.premises, rule.conclusion),)
    out: list[Instance] = []
    for entity in domain:
        premises = tuple(substitute(p, entity) for p in rule.premises)
        if len(set(premises)) < len(premises):  # e.g. likes(X,bob), likes(bob,X) at X = bob
            premises = tuple(dict.fromkeys(premises))
        out.append((rule.id, premises, substitute(rule.conclusion, entity)))
    return tuple(out)


@lru_cache(maxsize=2048)
def instances(rules: Rules, domain: tuple[str, ...]) -> tuple[Instance, ...]:
    """All ground instances over ``domain``, in (rule id, entity) order."""
    return tuple(i for rule in rules.rules for i in _rule_instances(rule, domain))


@dataclass(frozen=True)
class _Program:
    """Ground instances indexed by premise, so each derived atom wakes only its own rules."""

    instances: tuple[Instance, ...]
    waiting: tuple[int, ...]  # number of distinct premises per instance
    watch: dict[Atom, tuple[int, ...]]


@lru_cache(maxsize=1024)
def _program(rules: Rules, domain: tuple[str, ...]) -> _Program:
    ground = instances(rules, domain)
    watch: dict[Atom, list[int]] = {}
    for index, (_, premises, _) in enumerate(ground):
        for atom in premises:
            watch.setdefault(atom, []).append(index)
    return _Program(
        ground,
        tuple(len(p) for _, p, _ in ground),
        {atom: tuple(ids) for atom, ids in watch.items()},
    )


@lru_cache(maxsize=2048)
def _constants(rules: Rules) -> frozenset[str]:
    return frozenset(t for rule in rules.rules for t in rule.constants())


def domain_of(facts: Facts, rules: Rules) -> tuple[str, ...]:
    """The entities grounding ranges over: those of the facts and the rules' constants."""
    return tuple(sorted(_constants(rules).union(t for a in facts.atoms for t in a[1:])))


@lru_cache(maxsize=4096)
def closure(facts: Facts, rules: Rules, authority: Authority | None = None) -> Closure:
    """Semi-naive closure of ``facts`` under ``rules``, or under the rules ``authority`` allows.

    Cached: the cells of a cube share closures. The authorised closure runs the program of the
    full rule set and lets only authorised instances fire, so all hybrids of one rule set share
    one grounding.
    """
    program = _program(rules, domain_of(facts, rules))
    allowed = None if authority is None else set(authority.allowed)
    depth = dict.fromkeys(facts.atoms, 0)
    support: dict[Atom, Instance] = {}
    waiting = list(program.waiting)
    frontier: list[Atom] = list(facts.atoms)
    level = 0
    while frontier:
        level += 1
        fresh: list[Atom] = []
        for atom in frontier:
            for index in program.watch.get(atom, ()):
                waiting[index] -= 1
                if waiting[index] == 0:
                    instance = program.instances[index]
                    if allowed is not None and instance[0] not in allowed:
                        continue
                    head = instance[2]
                    if head not in depth:
                        depth[head] = level
                        support[head] = instance
                        fresh.append(head)
        frontier = fresh
    return Closure(depth, support)


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
    seen: set[Atom] = set()

    def visit(atom: Atom) -> None:
        if atom in seen or atom not in result.support:
            return
        seen.add(atom)
        instance = result.support[atom]
        for premise in instance[1]:
            visit(premise)
        steps.append(instance)

    visit(query)
    return steps
