"""Random starting states: grounds inside the schema, the clause's rule and scope, lightly varied.

Grounds are drawn near the thresholds the rule and scope mention (else the verdict would hardly
ever hinge on them) and inside the scope most of the time (else most cases would be ``refer``).
Everything random comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.organizational.builders import satisfying_value
from reasonbench.strata.organizational.model import (
    NUMERIC_OPS,
    Grounds,
    Norm,
    Predicate,
    Scope,
    Value,
)
from reasonbench.strata.organizational.schema import Clause, FieldSpec
from reasonbench.strata.organizational.sites import (
    loosen_direction,
    norm_sites,
    pick_threshold,
    replace_predicate,
    replace_test,
)

IN_SCOPE = 0.94  # per scope test: chance the drawn value satisfies it
NEAR_THRESHOLD = 0.6  # chance a numeric value is drawn within a few steps of a threshold
RULE_VARIATION = 0.3  # chance the base rule has one threshold shifted
SCOPE_VARIATION = 0.25  # chance the base scope has its band shifted
LIVE = 0.6  # chance the base grounds are pulled onto one rule line (see ``enliven``)


def anchors(predicates: tuple[Predicate, ...]) -> list[int]:
    """Numeric thresholds and band edges of ``predicates`` (places where truth changes)."""
    points: list[int] = []
    for p in predicates:
        if p.op == "between":
            points.extend(p.band)
        elif p.op in NUMERIC_OPS:
            points.append(p.threshold)
    return points


def uniform(
    spec: FieldSpec, rng: random.Random, low: int | None = None, high: int | None = None
) -> int:
    low = spec.minimum if low is None else low
    high = spec.maximum if high is None else high
    return low + rng.randrange((high - low) // spec.step + 1) * spec.step


# What drawing a value of one field needs, given the rule and scope (see ``plan``).
Plan = tuple[FieldSpec, str, tuple[Any, ...], tuple[Any, ...]]


def plan(spec: FieldSpec, tests: list[Predicate], preds: list[Predicate]) -> Plan:
    """How to draw ``spec``: its kind and the value pools, anchors or band that apply."""
    if spec.kind == "bool":
        return spec, "bool", (), ()
    if spec.kind == "enum":
        if tests and isinstance(tests[0].value, tuple):
            members = tests[0].value
            allowed = tuple(v for v in spec.values if v in members)
            return spec, "scoped", allowed, tuple(v for v in spec.values if v not in members)
        mentioned = tuple(
            v
            for v in spec.values
            if any(isinstance(p.value, tuple) and v in p.value for p in preds)
        )
        return spec, "enum", mentioned, spec.values
    band = tuple(t.band for t in tests if t.op == "between")
    return spec, "numeric", tuple(anchors((*preds, *tests))), band


def sample_value(field: Plan, rng: random.Random) -> Value:
    """A value for one field, drawn as its plan says."""
    spec, kind, first, second = field
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "scoped":  # first: values the scope admits, second: the others
        return str(rng.choice(first if rng.random() < IN_SCOPE or not second else second))
    if kind == "enum":  # first: values the rule mentions, second: all
        return str(rng.choice(first if first and rng.random() < 0.5 else second))
    if first and rng.random() < NEAR_THRESHOLD:  # first: anchors, second: the scope's band
        return spec.clip(rng.choice(first) + rng.randint(-3, 3) * spec.step)
    if second and rng.random() < IN_SCOPE:
        low, high = second[0]
        return uniform(spec, rng, low, high)
    return uniform(spec, rng)


def by_field(predicates: tuple[Predicate, ...]) -> dict[str, list[Predicate]]:
    found: dict[str, list[Predicate]] = {}
    for p in predicates:
        found.setdefault(p.field, []).append(p)
    return found


def plans(
    clause: Clause, rule: Norm, scope: Scope, changed: tuple[str, ...] | None = None
) -> tuple[Plan, ...]:
    """Per-field plans, cached on the clause for its own rule and scope. ``changed`` names the
    only fields on which ``rule`` and ``scope`` differ from the clause's own, if known: the
    cached plans are then reused for all other fields."""
    if "plans" not in clause.cache:
        scoped, ruled = by_field(clause.scope.tests), by_field(clause.rule.predicates())
        clause.cache["plans"] = tuple(
            plan(f, scoped.get(f.name, []), ruled.get(f.name, [])) for f in clause.fields
        )
    own: tuple[Plan, ...] = clause.cache["plans"]
    if rule is clause.rule and scope is clause.scope:
        return own
    if changed is None:
        changed = tuple(f.name for f in clause.fields)
    found = list(own)
    for i, spec in enumerate(clause.fields):
        if spec.name in changed:
            tests = [t for t in scope.tests if t.field == spec.name]
            preds = [p for p in rule.predicates() if p.field == spec.name]
            found[i] = plan(spec, tests, preds)
    return tuple(found)


def sample_grounds(
    clause: Clause,
    rule: Norm,
    scope: Scope,
    rng: random.Random,
    changed: tuple[str, ...] | None = None,
) -> Grounds:
    """Facts for a case under ``rule`` and ``scope`` (``changed``: see :func:`plans`)."""
    drawn = plans(clause, rule, scope, changed)
    values = {field[0].name: sample_value(field, rng) for field in drawn}
    if rng.random() < LIVE:
        enliven(clause, rule, values, rng)
    return Grounds(tuple(values.items()))


def enliven(clause: Clause, rule: Norm, values: dict[str, Value], rng: random.Random) -> None:
    """Make most predicates of one rule line hold, so that single facts and thresholds matter.

    Independent draws rarely satisfy a three-part condition, and then no revision of one part
    changes anything: the case would be stable for an uninteresting reason.
    """
    item = rng.choice(rule.items())
    for predicate in item.when:
        if rng.random() < 0.85:
            value = satisfying_value(clause.spec(predicate.field), predicate, rng)
            if value is not None:
                values[predicate.field] = value


def vary_rule(clause: Clause, rule: Norm, rng: random.Random) -> tuple[Norm, str]:
    """Sometimes shift one threshold a few steps, so a clause is not one fixed rule.

    Returns the rule and the field whose threshold moved (``""`` if none did)."""
    if not any(p.op in NUMERIC_OPS for p in rule.predicates()) or rng.random() >= RULE_VARIATION:
        return rule, ""
    sites = norm_sites(rule, numeric=True)
    site, predicate, _ = rng.choice(sites)
    spec = clause.spec(predicate.field)
    direction = rng.choice((-1, 1)) * loosen_direction(predicate.op)
    value = pick_threshold(spec, predicate, spec.minimum, direction, rng, None)
    if value is None:
        return rule, ""
    return replace_predicate(rule, site, predicate.with_value(value)), predicate.field


def vary_scope(clause: Clause, scope: Scope, rng: random.Random) -> tuple[Scope, str]:
    """Sometimes shift the delegated band's upper edge, keeping it a proper band.

    Returns the scope and the field of the band that moved (``""`` if none did)."""
    bands = [i for i, t in enumerate(scope.tests) if t.op == "between"]
    if not bands or rng.random() >= SCOPE_VARIATION:
        return scope, ""
    index = rng.choice(bands)
    test = scope.tests[index]
    spec = clause.spec(test.field)
    low, high = test.band
    new_high = spec.clip(high + rng.choice((-2, -1, 1, 2)) * spec.step)
    if new_high < low or (low == spec.minimum and new_high == spec.maximum):
        return scope, ""
    return replace_test(scope, index, test.with_value((low, new_high))), test.field


def sample_base(clause: Clause, rng: random.Random) -> EvaluatorState[Any]:
    rule, ruled = vary_rule(clause, clause.rule, rng)
    scope, scoped = vary_scope(clause, clause.scope, rng)
    grounds = sample_grounds(clause, rule, scope, rng, (ruled, scoped))
    return EvaluatorState.of(G=grounds, N=rule, A=scope)
