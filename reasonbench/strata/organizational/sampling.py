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


def sample_value(spec: FieldSpec, rule: Norm, scope: Scope, rng: random.Random) -> Value:
    tests = [t for t in scope.tests if t.field == spec.name]
    preds = tuple(p for p in rule.predicates() if p.field == spec.name)
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "enum":
        if tests and isinstance(tests[0].value, tuple):
            allowed = [v for v in spec.values if v in tests[0].value]
            others = [v for v in spec.values if v not in tests[0].value]
            pool = allowed if rng.random() < IN_SCOPE or not others else others
            return rng.choice(pool)
        mentioned = [
            v
            for v in spec.values
            if any(isinstance(p.value, tuple) and v in p.value for p in preds)
        ]
        return rng.choice(mentioned if mentioned and rng.random() < 0.5 else list(spec.values))
    points = anchors(preds + tuple(tests))
    if points and rng.random() < NEAR_THRESHOLD:
        return spec.clip(rng.choice(points) + rng.randint(-3, 3) * spec.step)
    band = [t.band for t in tests if t.op == "between"]
    if band and rng.random() < IN_SCOPE:
        low, high = band[0]
        return uniform(spec, rng, low, high)
    return uniform(spec, rng)


def sample_grounds(clause: Clause, rule: Norm, scope: Scope, rng: random.Random) -> Grounds:
    grounds = Grounds(tuple((f.name, sample_value(f, rule, scope, rng)) for f in clause.fields))
    return enliven(clause, rule, grounds, rng) if rng.random() < LIVE else grounds


def enliven(clause: Clause, rule: Norm, grounds: Grounds, rng: random.Random) -> Grounds:
    """Make most predicates of one rule line hold, so that single facts and thresholds matter.

    Independent draws rarely satisfy a three-part condition, and then no revision of one part
    changes anything: the case would be stable for an uninteresting reason.
    """
    item = rng.choice(rule.items())
    for predicate in item.when:
        if rng.random() < 0.85:
            value = satisfying_value(clause.spec(predicate.field), predicate, rng)
            if value is not None:
                grounds = grounds.replace(predicate.field, value)
    return grounds


def vary_rule(clause: Clause, rule: Norm, rng: random.Random) -> Norm:
    """Sometimes shift one threshold a few steps, so a clause is not one fixed rule."""
    sites = norm_sites(rule, numeric=True)
    if not sites or rng.random() >= RULE_VARIATION:
        return rule
    site, predicate, _ = rng.choice(sites)
    spec = clause.spec(predicate.field)
    direction = rng.choice((-1, 1)) * loosen_direction(predicate.op)
    value = pick_threshold(spec, predicate, spec.minimum, direction, rng, None)
    return rule if value is None else replace_predicate(rule, site, predicate.with_value(value))


def vary_scope(clause: Clause, scope: Scope, rng: random.Random) -> Scope:
    """Sometimes shift the delegated band's upper edge, keeping it a proper band."""
    bands = [i for i, t in enumerate(scope.tests) if t.op == "between"]
    if not bands or rng.random() >= SCOPE_VARIATION:
        return scope
    index = rng.choice(bands)
    test = scope.tests[index]
    spec = clause.spec(test.field)
    low, high = test.band
    new_high = spec.clip(high + rng.choice((-2, -1, 1, 2)) * spec.step)
    if new_high < low or (low == spec.minimum and new_high == spec.maximum):
        return scope
    return replace_test(scope, index, test.with_value((low, new_high)))


def sample_base(clause: Clause, rng: random.Random) -> EvaluatorState[Any]:
    rule = vary_rule(clause, clause.rule, rng)
    scope = vary_scope(clause, clause.scope, rng)
    grounds = sample_grounds(clause, rule, scope, rng)
    return EvaluatorState.of(G=grounds, N=rule, A=scope)
