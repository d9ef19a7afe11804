"""Norm operators: they change the clause's rule only (thresholds, exceptions, default,
requirements), never the facts or the scope, and only mention fields of the schema.

Targeted moves read the current case (the grounds already revised, in a multi-source change)
and prefer the focused facts (see :mod:`.focus`), so a revision is often *about* this case: a
threshold moved just past its value, an exception written for its category. That is what makes
multi-source receipts of size 2 and 3 occur.
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator
from reasonbench.strata.organizational.adjudicator import unpack
from reasonbench.strata.organizational.builders import (
    predicate_with_truth,
    requirement_violation,
    separating_predicate,
)
from reasonbench.strata.organizational.focus import Focus, aim, prefer, split
from reasonbench.strata.organizational.model import APPROVE, DENY, NEGATION, Condition, Norm
from reasonbench.strata.organizational.schema import Clause
from reasonbench.strata.organizational.sites import (
    approval_sign,
    loosen_direction,
    norm_sites,
    pick_threshold,
    replace_predicate,
)

AIMED = 0.7  # chance a targeted operator aims at the current case

Unit = Clause | Focus
Result = Norm | None


def _move(
    unit: Unit, state: EvaluatorState[Any], rng: random.Random, relax: int, cross: bool | None
) -> Result:
    clause, focus = split(unit)
    grounds, norm, _ = unpack(state)
    sites = prefer(norm_sites(norm, numeric=True), lambda s: (s[1].field,), focus, rng)
    for site, predicate, outcome in sites:
        spec = clause.spec(predicate.field)
        sign = relax * approval_sign(outcome) * loosen_direction(predicate.op)
        direction = sign if relax else rng.choice((-1, 1))
        aimed = cross if cross is not None else (True if rng.random() < AIMED else None)
        value, keep = aim(unit, predicate.field, grounds[predicate.field], rng)
        if cross is False:  # an invariance edit must keep the current fact's standing
            value, keep = grounds[predicate.field], None
        threshold = None
        if aimed is True and keep is not None:
            threshold = pick_threshold(spec, predicate, int(value), direction, rng, True, int(keep))
        if threshold is None:
            threshold = pick_threshold(spec, predicate, int(value), direction, rng, aimed)
        if threshold is None and aimed is True:
            threshold = pick_threshold(spec, predicate, int(value), direction, rng, None)
        if threshold is not None:
            return replace_predicate(norm, site, predicate.with_value(threshold))
    return None


def tighten_threshold(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a threshold so that fewer cases are approved."""
    return _move(unit, state, rng, -1, None)


def relax_threshold(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a threshold so that more cases are approved."""
    return _move(unit, state, rng, 1, None)


def shift_threshold_within(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Move a threshold without crossing the case's value (an invariance case)."""
    return _move(unit, state, rng, 0, False)


def _fields(clause: Clause, norm: Norm, focus: tuple[str, ...], rng: random.Random) -> list[str]:
    names = [f.name for f in clause.fields]
    rng.shuffle(names)
    # Half the time prefer the rule's own criteria (realistic refinements); the focus, when
    # there is one, comes first of all.
    if rng.random() < 0.5:
        names.sort(key=lambda n: n not in norm.fields())
    return prefer(names, lambda n: (n,), focus, rng) if focus else names


def _exception(unit: Unit, state: EvaluatorState[Any], rng: random.Random, applies: bool) -> Result:
    clause, focus = split(unit)
    grounds, norm, _ = unpack(state)
    names = _fields(clause, norm, focus, rng)
    preds = []
    for name in names[: 1 + (rng.random() < 0.3)]:
        spec = clause.spec(name)
        target, keep = aim(unit, name, grounds[name], rng) if applies else (grounds[name], None)
        predicate = None
        if keep is not None:  # an exception for the revised fact, not the old one
            predicate = separating_predicate(spec, target, keep, rng)
        if predicate is None:
            predicate = predicate_with_truth(spec, (target,), applies, rng)
        if predicate is not None:
            preds.append(predicate)
    if not preds:
        return None
    # Written against the ruling on the facts it aims at: the old ones when mirroring.
    facts = grounds
    if isinstance(unit, Focus) and unit.mirror and unit.before is not None:
        facts = unit.before
    merits = norm.decide(facts.mapping)
    opposite = DENY if merits == APPROVE else APPROVE
    exception = Condition(tuple(preds), opposite if rng.random() < 0.8 else merits)
    if rng.random() < 0.5:
        return norm.revised(exceptions=(exception, *norm.exceptions))
    return norm.revised(exceptions=(*norm.exceptions, exception))


def add_exception(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Add an overriding exception, usually one written for this very case."""
    return _exception(unit, state, rng, rng.random() < 0.8)


def add_inapplicable_exception(
    unit: Unit, state: EvaluatorState[Any], rng: random.Random
) -> Result:
    """Add an exception whose condition this case does not meet (an invariance case)."""
    return _exception(unit, state, rng, False)


def remove_exception(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Delete one exception."""
    _, focus = split(unit)
    _, norm, _ = unpack(state)
    if not norm.exceptions:
        return None
    drop = prefer(norm.exceptions, lambda e: e.fields(), focus, rng)[0]
    index = norm.exceptions.index(drop)
    return norm.revised(exceptions=norm.exceptions[:index] + norm.exceptions[index + 1 :])


def flip_default(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Change the default disposition (what happens when no condition fires)."""
    _, norm, _ = unpack(state)
    return norm.revised(default=DENY if norm.default == APPROVE else APPROVE)


def add_requirement(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Add a requirement: a new deny rule that fires when it is not met."""
    clause, focus = split(unit)
    grounds, norm, _ = unpack(state)
    names = [f.name for f in clause.fields]
    rng.shuffle(names)
    names.sort(key=lambda n: clause.spec(n).kind != "bool")  # documents first: most realistic
    names = prefer(names, lambda n: (n,), focus, rng) if focus else names
    violated = rng.random() < AIMED
    for name in names[:4]:
        spec = clause.spec(name)
        target, keep = aim(unit, name, grounds[name], rng) if violated else (grounds[name], None)
        bad = _bad_directions(norm, name)
        trigger = None
        if keep is not None and spec.kind != "bool":  # unmet by the revised fact only
            trigger = separating_predicate(spec, target, keep, rng)
            if trigger is not None and bad and trigger.op not in bad:
                trigger = None  # it would contradict the rule's own direction for this field
        if trigger is None:
            trigger = requirement_violation(spec, target, violated, rng, bad)
        if trigger is not None and all(c.when != (trigger,) for c in norm.conditions):
            return norm.revised(conditions=(*norm.conditions, Condition((trigger,), DENY)))
    return None


def _bad_directions(norm: Norm, name: str) -> tuple[str, ...]:
    """Comparisons that already count against a case on ``name`` in this rule ("too high")."""
    found = []
    for item in norm.items():
        for p in item.when:
            if p.field == name and p.op in NEGATION:
                found.append(p.op if item.outcome == DENY else NEGATION[p.op])
    return tuple(op for op in dict.fromkeys(found) if op in ("<=", "<", ">=", ">"))


def drop_requirement(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Result:
    """Remove a deny rule, or one requirement of a multi-part condition."""
    _, focus = split(unit)
    _, norm, _ = unpack(state)
    # Options as (field, condition, part): part -1 drops the whole deny rule. Only the chosen
    # one is built.
    options: list[tuple[str, int, int]] = []
    conditions = norm.conditions
    for i, c in enumerate(conditions):
        if c.outcome == DENY and len(conditions) > 1:
            options.append((c.when[0].field, i, -1))
        for j in range(len(c.when) if len(c.when) > 1 else 0):
            options.append((c.when[j].field, i, j))
    ranked = prefer(options, lambda o: (o[0],), focus, rng)
    if not ranked:
        return None
    _, i, j = ranked[0]
    if j < 0:
        return norm.revised(conditions=conditions[:i] + conditions[i + 1 :])
    c = conditions[i]
    smaller = Condition(c.when[:j] + c.when[j + 1 :], c.outcome)
    return norm.revised(conditions=conditions[:i] + (smaller,) + conditions[i + 1 :])


def _op(name: str, apply: Any, noop: bool = False) -> Operator:
    return Operator(name, "N", apply, noop, (apply.__doc__ or "").strip())


NORM_OPERATORS = (
    _op("n_tighten_threshold", tighten_threshold),
    _op("n_relax_threshold", relax_threshold),
    _op("n_add_exception", add_exception),
    _op("n_remove_exception", remove_exception),
    _op("n_flip_default", flip_default),
    _op("n_add_requirement", add_requirement),
    _op("n_drop_requirement", drop_requirement),
    _op("n_shift_threshold_within", shift_threshold_within, noop=True),
    _op("n_add_inapplicable_exception", add_inapplicable_exception, noop=True),
)
