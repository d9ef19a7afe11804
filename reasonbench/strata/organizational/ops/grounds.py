"""Grounds operators: they change case facts only, always to legal schema values.

Each returns new :class:`Grounds` (never touching the rule or scope) or ``None`` when it does not
apply. Moves that aim at a threshold read the thresholds of the *current* rule and scope.
Grounds come first in a composition, so they take no focus.
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator
from reasonbench.strata.organizational.adjudicator import unpack
from reasonbench.strata.organizational.focus import Focus, split
from reasonbench.strata.organizational.model import Grounds, Predicate
from reasonbench.strata.organizational.schema import Clause
from reasonbench.strata.organizational.sites import constant_interval, pick_value

Unit = Clause | Focus
Result = Grounds | None


def _thresholds(predicates: tuple[Predicate, ...]) -> list[Predicate]:
    return [p for p in predicates if p.op not in ("is", "in", "not_in")]


def _cross(clause: Clause, grounds: Grounds, preds: list[Predicate], rng: random.Random) -> Result:
    rng.shuffle(preds)
    for p in preds:
        value = pick_value(clause.spec(p.field), int(grounds[p.field]), rng, (), p)
        if value is not None:
            return grounds.replace(p.field, value)
    return None


def cross_threshold(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a numeric fact just across one of the rule's thresholds."""
    clause, _ = split(unit)
    grounds, norm, _ = unpack(state)
    return _cross(clause, grounds, _thresholds(norm.predicates()), rng)


def cross_band(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a numeric fact just across an edge of the scope's delegated band."""
    clause, _ = split(unit)
    grounds, _, scope = unpack(state)
    return _cross(clause, grounds, _thresholds(scope.tests), rng)


def _numeric(clause: Clause, names: tuple[str, ...]) -> list[str]:
    return [n for n in names if clause.spec(n).numeric]


def within_threshold(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a numeric fact the rule or scope mentions, crossing none of their thresholds."""
    clause, _ = split(unit)
    grounds, norm, scope = unpack(state)
    names = _numeric(clause, clause.referenced(norm, scope))
    rng.shuffle(names)
    for name in names:
        keep = tuple(p for p in norm.predicates() + scope.tests if p.field == name)
        value = pick_value(clause.spec(name), int(grounds[name]), rng, keep, None)
        if value is not None:
            return grounds.replace(name, value)
    return None


def approach_threshold(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a numeric fact towards a threshold or band edge, stopping short of crossing it."""
    clause, _ = split(unit)
    grounds, norm, scope = unpack(state)
    names = _numeric(clause, clause.referenced(norm, scope))
    rng.shuffle(names)
    for name in names:
        spec, value = clause.spec(name), int(grounds[name])
        keep = tuple(p for p in norm.predicates() + scope.tests if p.field == name)
        low, high = constant_interval(spec, keep, value)
        # Only an edge that a threshold (not the range end) bounds is worth approaching.
        ends = [e for e, bound in ((low, spec.minimum), (high, spec.maximum)) if e != bound]
        ends = [e for e in ends if abs(e - value) >= spec.step]
        if ends:
            end = rng.choice(ends)
            direction = 1 if end > value else -1
            return grounds.replace(name, end - direction * rng.randrange(2) * spec.step)
    return None


def shift_value(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a numeric fact the rule or scope mentions by a few steps, across or not."""
    clause, _ = split(unit)
    grounds, norm, scope = unpack(state)
    names = _numeric(clause, clause.referenced(norm, scope))
    if not names:
        return None
    spec = clause.spec(rng.choice(names))
    value = int(grounds[spec.name])
    moved = spec.clip(value + rng.choice((-1, 1)) * rng.randint(1, 10) * spec.step)
    return grounds.replace(spec.name, moved) if moved != value else None


def toggle_document(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Flip a yes/no fact (a document attached, an approval obtained), usually one the rule uses."""
    clause, _ = split(unit)
    grounds, norm, _ = unpack(state)
    flags = [f.name for f in clause.fields if f.kind == "bool"]
    used = [n for n in flags if n in norm.fields()]
    pool = used if used and rng.random() < 0.6 else flags
    if not pool:
        return None
    name = rng.choice(pool)
    return grounds.replace(name, not grounds[name])


def _other(
    clause: Clause, grounds: Grounds, name: str, rng: random.Random, prefer: list[str]
) -> Grounds:
    options = [v for v in clause.spec(name).values if v != grounds[name]]
    preferred = [v for v in prefer if v in options]
    pool = preferred if preferred and rng.random() < 0.6 else options
    return grounds.replace(name, rng.choice(pool))


def change_category(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Change a category fact the rule mentions, preferring values the rule names."""
    clause, _ = split(unit)
    grounds, norm, _ = unpack(state)
    names = [n for n in norm.fields() if clause.spec(n).kind == "enum"]
    if not names:
        return None
    name = rng.choice(names)
    named = [v for p in norm.predicates() if p.field == name for v in p.members]
    return _other(clause, grounds, name, rng, named)


def reassign_case(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Change a jurisdiction fact (department, role, region, case type) the scope tests."""
    clause, _ = split(unit)
    grounds, _, scope = unpack(state)
    tests = [t for t in scope.tests if t.op == "in"]
    if not tests:
        return None
    test = rng.choice(tests)
    inside = test.test(grounds.mapping)
    # Usually flip the case's standing in the scope: the revision is about jurisdiction.
    flip = [v for v in clause.spec(test.field).values if (v in test.members) != inside]
    return _other(clause, grounds, test.field, rng, flip)


def touch_unreferenced(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Change a fact neither the rule nor the scope mentions (an invariance case)."""
    clause, _ = split(unit)
    grounds, norm, scope = unpack(state)
    used = set(clause.referenced(norm, scope))
    names = [f.name for f in clause.fields if f.name not in used]
    if not names:
        return None
    spec = clause.spec(rng.choice(names))
    if spec.kind == "bool":
        return grounds.replace(spec.name, not grounds[spec.name])
    if spec.kind == "enum":
        return _other(clause, grounds, spec.name, rng, [])
    value = pick_value(spec, int(grounds[spec.name]), rng, (), None)
    return None if value is None else grounds.replace(spec.name, value)


def _op(name: str, apply: Any, noop: bool = False) -> Operator:
    return Operator(name, "G", apply, noop, (apply.__doc__ or "").strip())


GROUNDS_OPERATORS = (
    _op("g_cross_threshold", cross_threshold),
    _op("g_cross_band", cross_band),
    _op("g_approach_threshold", approach_threshold),
    _op("g_shift_value", shift_value),
    _op("g_toggle_document", toggle_document),
    _op("g_change_category", change_category),
    _op("g_reassign_case", reassign_case),
    _op("g_within_threshold", within_threshold, noop=True),
    _op("g_touch_unreferenced", touch_unreferenced, noop=True),
)
