"""Building new predicates with a chosen truth value on given case values.

Operators that add an exception or a requirement, and distractors that add a sentence which can
never fire, all need "a predicate on field f that is true (or false) for these values". Numeric
thresholds land within a few grid steps of the values, so the added text reads like a plausible
policy line rather than an absurd one.
"""

from __future__ import annotations

import random

from reasonbench.strata.organizational.model import Predicate, Value
from reasonbench.strata.organizational.schema import FieldSpec

SPREAD = 4  # grid steps a new threshold may sit away from the case values


def numeric_predicate(
    spec: FieldSpec,
    values: tuple[int, ...],
    want: bool,
    rng: random.Random,
    allowed: tuple[str, ...] = (),
) -> Predicate | None:
    """A threshold predicate with truth ``want`` on every one of ``values`` (or ``None``).

    ``allowed`` restricts the comparison operators (e.g. to the direction the rule already
    uses for this field, so that a new requirement reads like the rule's own).
    """
    ops = list(allowed) or ["<=", ">", ">=", "<"]
    rng.shuffle(ops)
    for op in ops:
        lo, hi = spec.threshold_bounds(op)
        # "v <= t" for all v  <=>  t >= max(v); "v > t" for all v <=> t < min(v); etc.
        upper_side = (op in ("<=", "<")) == want
        if upper_side:  # the threshold must lie above all values
            first = max(values) + (spec.step if op in ("<", ">=") else 0)
            options = [first + k * spec.step for k in range(SPREAD)]
        else:  # below all values
            first = min(values) - (spec.step if op in ("<=", ">") else 0)
            options = [first - k * spec.step for k in range(SPREAD)]
        options = [t for t in options if lo <= t <= hi]
        if options:
            return Predicate(spec.name, op, rng.choice(options))
    return None


def predicate_with_truth(
    spec: FieldSpec, values: tuple[Value, ...], want: bool, rng: random.Random
) -> Predicate | None:
    """A predicate on ``spec`` that is ``want`` on every value in ``values`` (``None`` if none)."""
    if spec.kind == "bool":
        if len(set(values)) > 1:
            return None
        return Predicate(spec.name, "is", bool(values[0]) if want else not values[0])
    if spec.kind == "enum":
        present = [v for v in spec.values if v in values]
        absent = [v for v in spec.values if v not in values]
        if want:
            return Predicate(spec.name, "in", tuple(present))
        if not absent:
            return None
        size = 1 + rng.randrange(min(2, len(absent)))
        chosen = sorted(rng.sample(absent, size), key=spec.values.index)
        return Predicate(spec.name, "in", tuple(chosen))
    return numeric_predicate(spec, tuple(int(v) for v in values), want, rng)


def requirement_violation(
    spec: FieldSpec, value: Value, violated: bool, rng: random.Random, allowed: tuple[str, ...] = ()
) -> Predicate | None:
    """The trigger of a new deny rule "deny if <requirement unmet>" on ``spec``.

    For a flag the requirement is its ``desired`` value (a document must be attached, a risk
    flag must be clear); otherwise any predicate whose truth on ``value`` is ``violated``.
    """
    if spec.kind == "bool":
        trigger = Predicate(spec.name, "is", not spec.desired)
        return trigger if trigger.test({spec.name: value}) == violated else None
    if spec.numeric:
        return numeric_predicate(spec, (int(value),), violated, rng, allowed)
    return predicate_with_truth(spec, (value,), violated, rng)


def separating_predicate(
    spec: FieldSpec, yes: Value, no: Value, rng: random.Random
) -> Predicate | None:
    """A predicate true on ``yes`` and false on ``no``: a line about the revised fact only."""
    if yes == no:
        return None
    if spec.kind == "bool":
        return Predicate(spec.name, "is", bool(yes))
    if spec.kind == "enum":
        return Predicate(spec.name, "in", (str(yes),))
    high, low = int(yes), int(no)
    up = high > low  # the revised value lies above the old one: "at least ..." separates them
    if not up:
        high, low = low, high
    # Thresholds strictly between the two values (inclusive of the revised one), nearest first.
    grid = range(high, low, -spec.step) if up else range(low, high, spec.step)
    options = list(grid)[:SPREAD]
    op = ">=" if up else "<="
    bounds = spec.threshold_bounds(op)
    options = [t for t in options if bounds[0] <= t <= bounds[1]]
    return Predicate(spec.name, op, rng.choice(options)) if options else None


def satisfying_value(spec: FieldSpec, predicate: Predicate, rng: random.Random) -> Value | None:
    """A legal value of ``spec`` on which ``predicate`` holds, near its threshold if numeric."""
    if spec.kind == "bool":
        return bool(predicate.value)
    if spec.kind == "enum":
        members = [v for v in spec.values if predicate.test({spec.name: v})]
        return rng.choice(members) if members else None
    anchor = predicate.band[0] if predicate.op == "between" else predicate.threshold
    near = [anchor + k * spec.step for k in range(-SPREAD, SPREAD + 1)]
    pool = [v for v in near if spec.admits(v) and predicate.test({spec.name: v})]
    return rng.choice(pool) if pool else None
