"""Cached indexes of a rule set's ground instances, for the operators' preference tiers.

Every draw asks the same questions of a handful of rule sets (the world's and the few a
revision makes): which instances conclude an atom, which rules mention it, which fire, what a
target can be derived from. Each answer depends only on hashable components, so it is computed
once per (rules, entities[, facts, mask]) key in a bounded LRU cache and shared by all draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reasonbench.strata.logical.chaining import Instance, derived, instances
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rule, Rules


@dataclass(frozen=True)
class RuleIndex:
    """The ground instances of one rule set over the world's entities, indexed.

    ``by_head``: instances per conclusion (in ground order). ``mentions``: ids of the rules with
    an instance that has the atom as a premise or a conclusion. ``premises``: every premise.
    ``by_id``: the rules by id.
    """

    by_head: dict[Atom, tuple[Instance, ...]]
    mentions: dict[Atom, frozenset[int]]
    premises: frozenset[Atom]
    by_id: dict[int, Rule]


@lru_cache(maxsize=1024)
def rule_index(rules: Rules, entities: tuple[str, ...]) -> RuleIndex:
    by_head: dict[Atom, list[Instance]] = {}
    mentions: dict[Atom, set[int]] = {}
    for instance in instances(rules, entities):
        by_head.setdefault(instance[2], []).append(instance)
        for atom in (*instance[1], instance[2]):
            mentions.setdefault(atom, set()).add(instance[0])
    return RuleIndex(
        {head: tuple(group) for head, group in by_head.items()},
        {atom: frozenset(ids) for atom, ids in mentions.items()},
        frozenset(p for instance in instances(rules, entities) for p in instance[1]),
        {rule.id: rule for rule in rules.rules},
    )


@dataclass(frozen=True)
class Firing:
    """The instances whose premises all hold: their rule ids and their premises."""

    ids: frozenset[int]
    premises: frozenset[Atom]


@lru_cache(maxsize=1024)
def firing(
    facts: Facts, rules: Rules, entities: tuple[str, ...], mask: Authority | None = None
) -> Firing:
    """Instances of ``rules`` (only authorised ones when ``mask`` is given) whose premises are
    all derivable with those same rules."""
    known = derived(facts, rules, mask).atoms
    fired = [
        i
        for i in instances(rules, entities)
        if (mask is None or i[0] in mask.allowed) and known.issuperset(i[1])
    ]
    return Firing(frozenset(i[0] for i in fired), frozenset(p for i in fired for p in i[1]))


@dataclass(frozen=True)
class Cone:
    """Everything ``target`` can be derived from (backward reachability over ground instances):
    the atoms, the rule ids and the instances."""

    atoms: frozenset[Atom]
    rules: frozenset[int]
    instances: tuple[Instance, ...]


@lru_cache(maxsize=4096)
def cone(rules: Rules, entities: tuple[str, ...], target: Atom) -> Cone:
    by_head = rule_index(rules, entities).by_head
    atoms, ids, todo, found = {target}, set(), [target], []
    while todo:
        for instance in by_head.get(todo.pop(), ()):
            ids.add(instance[0])
            found.append(instance)
            for premise in instance[1]:
                if premise not in atoms:
                    atoms.add(premise)
                    todo.append(premise)
    return Cone(frozenset(atoms), frozenset(ids), tuple(found))
