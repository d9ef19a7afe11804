"""Authority operators: they change the clause's scope only (which cases it may govern).

Scope tests are enum memberships (case types, departments, roles, regions) and one delegated
band on a numeric field. Targeted moves read the current case, so a revision often brings this
case into the scope or takes it out (the verdict then turns into or out of ``refer``).
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator
from reasonbench.strata.organizational.adjudicator import unpack
from reasonbench.strata.organizational.focus import Focus, aim, prefer, split
from reasonbench.strata.organizational.model import Predicate, Scope
from reasonbench.strata.organizational.schema import Clause
from reasonbench.strata.organizational.sites import pick_threshold, replace_test

AIMED = 0.65

Unit = Clause | Focus
Result = Scope | None


def _tests(
    state: EvaluatorState[Any], op: str, focus: tuple[str, ...], rng: random.Random, widen: bool
) -> list[tuple[int, Predicate]]:
    """Scope tests of kind ``op``: focused ones first; when widening, usually the failing ones
    first (a case outside the scope is brought in by widening the dimension that excludes it)."""
    grounds, _, scope = unpack(state)
    found = [(i, t) for i, t in enumerate(scope.tests) if t.op == op]
    ordered = prefer(found, lambda item: (item[1].field,), focus, rng)
    if widen and rng.random() < AIMED:
        ordered.sort(key=lambda item: item[1].test(grounds.mapping))
    return ordered


def _set_members(clause: Clause, test: Predicate, members: set[str]) -> Predicate | None:
    ordered = tuple(v for v in clause.spec(test.field).values if v in members)
    return test.with_value(ordered) if ordered and ordered != test.value else None


def _edit_members(unit: Unit, state: EvaluatorState[Any], rng: random.Random, mode: str) -> Result:
    clause, focus = split(unit)
    grounds, _, scope = unpack(state)
    for index, test in _tests(state, "in", focus, rng, mode == "add"):
        allowed = set(test.members)
        values = clause.spec(test.field).values
        case = str(grounds[test.field])
        if mode != "elsewhere":  # an invariance edit must not touch the current fact's standing
            case = str(aim(unit, test.field, case, rng)[0])
        if mode == "add":
            pool = [v for v in values if v not in allowed]
            aimed = case in pool and rng.random() < AIMED + 0.1
            choice = case if aimed else (rng.choice(pool) if pool else None)
            new = _set_members(clause, test, allowed | {choice}) if choice else None
        elif mode == "remove":
            pool = sorted(allowed, key=values.index) if len(allowed) > 1 else []
            aimed = case in pool and rng.random() < AIMED
            choice = case if aimed else (rng.choice(pool) if pool else None)
            new = _set_members(clause, test, allowed - {choice}) if choice else None
        else:  # elsewhere: add or remove a value other than the case's own (invariance)
            pool = [v for v in values if v != case and (v not in allowed or len(allowed) > 1)]
            choice = rng.choice(pool) if pool else None
            new = _set_members(clause, test, allowed ^ {choice}) if choice else None
        if new is not None:
            return replace_test(scope, index, new)
    return None


def _edit_band(
    unit: Unit,
    state: EvaluatorState[Any],
    rng: random.Random,
    edge: int,
    direction: int,
    cross: bool | None = None,
) -> Result:
    """Move the low (``edge=0``) or high (``edge=1``) band edge in ``direction``."""
    clause, focus = split(unit)
    grounds, _, scope = unpack(state)
    for index, test in _tests(state, "between", focus, rng, direction == (1 if edge else -1)):
        spec = clause.spec(test.field)
        low, high = test.band
        # The high edge behaves as "value <= high", the low edge as "value >= low".
        proxy = Predicate(test.field, "<=", high) if edge else Predicate(test.field, ">=", low)
        aimed = cross if cross is not None else (True if rng.random() < AIMED else None)
        target, keep = aim(unit, test.field, grounds[test.field], rng)
        if cross is False:  # an invariance edit must keep the current fact's standing
            target, keep = grounds[test.field], None
        moved = None
        if aimed is True and keep is not None:  # admit or exclude the revised fact only
            moved = pick_threshold(spec, proxy, int(target), direction, rng, True, int(keep))
        if moved is None:
            moved = pick_threshold(spec, proxy, int(target), direction, rng, aimed)
        if moved is None and aimed is True:
            moved = pick_threshold(spec, proxy, int(target), direction, rng, None)
        if moved is None:
            continue
        band = (low, moved) if edge else (moved, high)
        if band[0] <= band[1]:
            return replace_test(scope, index, test.with_value(band))
    return None


def widen_scope(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Admit one more department/role/region/case type, or extend the band downwards."""
    if rng.random() < 0.7:
        return _edit_members(unit, state, rng, "add") or _edit_band(unit, state, rng, 0, -1)
    return _edit_band(unit, state, rng, 0, -1) or _edit_members(unit, state, rng, "add")


def narrow_scope(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Withdraw one department/role/region/case type, or raise the band's floor."""
    if rng.random() < 0.7:
        return _edit_members(unit, state, rng, "remove") or _edit_band(unit, state, rng, 0, 1)
    return _edit_band(unit, state, rng, 0, 1) or _edit_members(unit, state, rng, "remove")


def raise_band(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Raise the ceiling of the delegated band (more authority)."""
    return _edit_band(unit, state, rng, 1, 1)


def lower_band(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Lower the ceiling of the delegated band (less authority)."""
    return _edit_band(unit, state, rng, 1, -1)


def transfer_jurisdiction(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Hand one scope dimension to another set of the same size (e.g. region EU -> US)."""
    clause, focus = split(unit)
    grounds, _, scope = unpack(state)
    for index, test in _tests(state, "in", focus, rng, True):
        values = list(clause.spec(test.field).values)
        allowed = set(test.members)
        size, case = len(allowed), str(grounds[test.field])
        others = [v for v in values if v != case]
        for _ in range(8):
            aim = rng.random() < AIMED  # aim: flip the case's own standing in the scope
            if aim and case in allowed and len(others) >= size:
                chosen = set(rng.sample(others, size))
            elif aim and case not in allowed:
                chosen = {case, *rng.sample(others, size - 1)}
            else:
                chosen = set(rng.sample(values, size))
            new = _set_members(clause, test, chosen)
            if new is not None:
                return replace_test(scope, index, new)
    return None


def adjust_elsewhere(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Change the scope where this case does not sit (an invariance case)."""
    if rng.random() < 0.5:
        edited = _edit_members(unit, state, rng, "elsewhere")
        if edited is not None:
            return edited
    edge, direction = rng.choice(((0, -1), (0, 1), (1, -1), (1, 1)))
    return _edit_band(unit, state, rng, edge, direction, False)


def _op(name: str, apply: Any, noop: bool = False) -> Operator:
    return Operator(name, "A", apply, noop, (apply.__doc__ or "").strip())


AUTHORITY_OPERATORS = (
    _op("a_widen_scope", widen_scope),
    _op("a_narrow_scope", narrow_scope),
    _op("a_raise_band", raise_band),
    _op("a_lower_band", lower_band),
    _op("a_transfer_jurisdiction", transfer_jurisdiction),
    _op("a_adjust_elsewhere", adjust_elsewhere, noop=True),
)
