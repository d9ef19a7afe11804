"""One-rule lookahead: an atom's verdict after one rule is replaced, without re-grounding.

Rule edits weigh each candidate edit by whether it moves the target's verdict. Building and
closing a fresh rule set per candidate is what made rule edits slow; instead, the state's
ground program (cached) is closed once *without* the edited rule, and each candidate is a few
extra instances propagated on top of that (positive rules are monotone, so the closure of
``R - r + r'`` is the closure of ``R - r`` closed again with ``r'``). Verdicts are exactly those
of :func:`~reasonbench.strata.logical.chaining.verdict`; only depths are not tracked.

Grounding over a superset of a state's domain derives nothing more (range restriction: an
instance for an entity that occurs nowhere has a premise about that entity, which nothing
derives), so the state's program serves every candidate whose constants it already grounds;
a candidate with a new constant falls back on the full computation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from reasonbench.core.adjudicator import REFER
from reasonbench.strata.logical.chaining import (
    FAILS,
    HOLDS,
    Instance,
    Program,
    derived,
    domain_of,
    ground_edit,
    program,
    verdict,
)
from reasonbench.strata.logical.world import VARIABLE, Atom, Authority, Facts, Rule, Rules


@lru_cache(maxsize=512)
def _without(facts: Facts, rules: Rules, mask: Authority | None, skip: int) -> frozenset[Atom]:
    """Everything derivable from ``facts`` by the state's rules except rule ``skip`` (and, under
    ``mask``, except unauthorised ones). Shortcut: a rule none of whose instances fires (or
    that is outside authority) changes nothing when removed. Cached: the same few rules of a
    world are edited from draw to draw."""
    ground = program(rules, domain_of(facts, rules))
    closed = derived(facts, rules, mask).atoms
    allowed = None if mask is None else frozenset(mask.allowed)
    if allowed is not None and skip not in allowed:
        return closed
    if not any(closed.issuperset(i[1]) for i in ground.by_rule.get(skip, ())):
        return closed
    known = set(facts.atoms)
    waiting = list(ground.waiting)
    todo = list(facts.atoms)
    watch, ground_instances = ground.watch, ground.instances
    while todo:
        for index in watch.get(todo.pop(), ()):
            waiting[index] -= 1
            if waiting[index] == 0:
                rule_id, _, head = ground_instances[index]
                if rule_id == skip or (allowed is not None and rule_id not in allowed):
                    continue
                if head not in known:
                    known.add(head)
                    todo.append(head)
    return frozenset(known)


def _reaches(
    base: frozenset[Atom],
    ground: Program,
    skip: int,
    allowed: frozenset[int] | None,
    extra: tuple[Instance, ...],
    target: Atom,
) -> bool:
    """Whether ``target`` is derivable once the ``extra`` instances join the closure ``base``."""
    if target in base:
        return True
    fresh = [i[2] for i in extra if i[2] not in base and base.issuperset(i[1])]
    if not fresh:
        return False
    known = set(base)
    known.update(fresh)
    todo = list(dict.fromkeys(fresh))
    watch, ground_instances = ground.watch, ground.instances
    while todo:
        atom = todo.pop()
        if atom == target:
            return True
        woken = [ground_instances[index] for index in watch.get(atom, ())]
        woken = [i for i in woken if i[0] != skip and (allowed is None or i[0] in allowed)]
        for _, premises, head in (*woken, *extra):
            if head not in known and known.issuperset(premises):
                known.add(head)
                todo.append(head)
    return False


Edit = tuple[int, tuple[Atom, ...], Atom]
"""A candidate rule edit, not built yet: (rule id, premises, conclusion). The rule with that
id (if any) is replaced, as ``Rules.put`` does."""


def moving(
    facts: Facts, rules: Rules, mask: Authority, target: Atom, edits: Sequence[Edit]
) -> Iterator[Edit]:
    """The ``edits`` that would change the verdict of ``target``, in their given order (lazily:
    a caller may need only the first)."""
    before = verdict(facts, rules, mask, target)
    domain = domain_of(facts, rules)
    grounded = frozenset(domain)
    ground = program(rules, domain)
    allowed = frozenset(mask.allowed)
    bases: dict[int, tuple[frozenset[Atom], frozenset[Atom]]] = {}
    for edit in edits:
        rule_id, body, head = edit
        if not grounded.issuperset(t for a in (*body, head) for t in a[1:] if t != VARIABLE):
            after = verdict(facts, rules.put(Rule(*edit)), mask, target)  # a new constant
        else:
            if rule_id not in bases:
                bases[rule_id] = (
                    _without(facts, rules, mask, rule_id),
                    _without(facts, rules, None, rule_id),
                )
            under, every = bases[rule_id]
            extra = ground_edit(rule_id, body, head, domain)
            authorised = extra if rule_id in allowed else ()
            if _reaches(under, ground, rule_id, allowed, authorised, target):
                after = HOLDS
            elif _reaches(every, ground, rule_id, None, extra, target):
                after = REFER
            else:
                after = FAILS
        if after != before:
            yield edit
