"""Cached indexes of a rule set's ground instances, for the operators' preference tiers.

Every draw asks the same questions of a handful of rule sets (the world's and the few a
revision makes): which instances conclude an atom, which rules mention it, which fire, what a
target can be derived from. Each answer depends only on hashable components, so it is computed
once per (rules, entities[, facts, mask]) key in a bounded LRU cache and shared by all draws.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from reasonbench.strata.logical.chaining import Instance, derived, instances
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rule, Rules


@lru_cache(maxsize=256)
def by_head(rules: Rules, entities: tuple[str, ...]) -> dict[Atom, list[Instance]]:
    """The ground instances of ``rules`` per conclusion, in ground order (read only)."""
    out: dict[Atom, list[Instance]] = {}
    for instance in instances(rules, entities):
        if instance[2] in out:
            out[instance[2]].append(instance)
        else:
            out[instance[2]] = [instance]
    return out


@lru_cache(maxsize=256)
def mentions(rules: Rules, entities: tuple[str, ...]) -> dict[Atom, set[int]]:
    """Per atom, the ids of the rules with an instance that has it as a premise or a
    conclusion (read only)."""
    out: dict[Atom, set[int]] = {}
    for rule_id, premises, head in instances(rules, entities):
        for atom in (*premises, head):
            out.setdefault(atom, set()).add(rule_id)
    return out


@lru_cache(maxsize=256)
def premises(rules: Rules, entities: tuple[str, ...]) -> frozenset[Atom]:
    """Every premise of a ground instance of ``rules``."""
    return frozenset(p for instance in instances(rules, entities) for p in instance[1])


@lru_cache(maxsize=256)
def by_id(rules: Rules) -> dict[int, Rule]:
    """The rules by id (read only)."""
    return {rule.id: rule for rule in rules.rules}


class Firing(NamedTuple):
    """The instances whose premises all hold: their rule ids and their premises."""

    ids: frozenset[int]
    premises: frozenset[Atom]


@lru_cache(maxsize=256)
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


class Cone(NamedTuple):
    """Everything ``target`` can be derived from (backward reachability over ground instances):
    the atoms, the rule ids and the instances."""

    atoms: frozenset[Atom]
    rules: frozenset[int]
    instances: tuple[Instance, ...]


@lru_cache(maxsize=1024)
def cone(rules: Rules, entities: tuple[str, ...], target: Atom) -> Cone:
    heads = by_head(rules, entities)
    atoms, ids, todo, found = {target}, set(), [target], []
    while todo:
        for instance in heads.get(todo.pop(), ()):
            ids.add(instance[0])
            found.append(instance)
            for premise in instance[1]:
                if premise not in atoms:
                    atoms.add(premise)
                    todo.append(premise)
    return Cone(frozenset(atoms), frozenset(ids), tuple(found))
