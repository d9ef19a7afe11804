"""Locating and replacing predicates inside norms and scopes, and moving values on a grid.

Operators edit one predicate (a *site*) at a time; these helpers keep every edit inside the
field's grid and range and let an operator aim a move at the current case: "just across" the
case's value (the revision decides this case differently) or "not across" it (an invariance).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass

from reasonbench.strata.organizational.model import (
    APPROVE,
    NUMERIC_OPS,
    Condition,
    Norm,
    Predicate,
    Scope,
)
from reasonbench.strata.organizational.schema import FieldSpec

NEAR = 3  # how many grid steps beyond the nearest crossing a targeted move may go


@dataclass(frozen=True)
class Site:
    """Where a predicate sits in a norm: ``part`` is "conditions" or "exceptions"."""

    part: str
    item: int
    index: int


def norm_sites(norm: Norm, numeric: bool = False) -> list[tuple[Site, Predicate, str]]:
    """Every predicate of ``norm`` with its site and the outcome of its item."""
    found = []
    for part in ("conditions", "exceptions"):
        items: tuple[Condition, ...] = getattr(norm, part)
        for i, item in enumerate(items):
            for j, predicate in enumerate(item.when):
                if not numeric or predicate.op in NUMERIC_OPS:
                    found.append((Site(part, i, j), predicate, item.outcome))
    return found


def replace_predicate(norm: Norm, site: Site, predicate: Predicate) -> Norm:
    items = list(getattr(norm, site.part))
    when = list(items[site.item].when)
    when[site.index] = predicate
    items[site.item] = Condition(tuple(when), items[site.item].outcome)
    if site.part == "conditions":
        return norm.revised(conditions=tuple(items))
    return norm.revised(exceptions=tuple(items))


def replace_test(scope: Scope, index: int, test: Predicate) -> Scope:
    tests = list(scope.tests)
    tests[index] = test
    return Scope(tuple(tests))


def loosen_direction(op: str) -> int:
    """+1 if raising the threshold makes the predicate true for more values, else -1."""
    return 1 if op in ("<=", "<") else -1


def approval_sign(outcome: str) -> int:
    """+1 if satisfying an item with this outcome pushes towards approval."""
    return 1 if outcome == APPROVE else -1


# ``HOLDS[op](value, threshold)``: a numeric comparison without building a predicate
# (operators scan many thresholds, so this is a C call rather than a dispatch on ``op``).
HOLDS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
}


def holds(op: str, threshold: int, value: int) -> bool:
    """Whether ``value op threshold`` holds."""
    return HOLDS[op](value, threshold)


def pick_threshold(
    spec: FieldSpec,
    predicate: Predicate,
    value: int,
    direction: int,
    rng: random.Random,
    cross: bool | None,
    keep: int | None = None,
) -> int | None:
    """A new threshold in ``direction`` from the current one.

    ``cross=True``: the predicate's truth on ``value`` flips (just across, up to NEAR steps more);
    ``False``: it does not; ``None``: either (a short random move). ``None`` if impossible.
    With ``keep``, only thresholds that leave the truth on ``keep`` (the old fact) unchanged
    qualify: the revision then separates the revised fact from the old one.
    """
    assert isinstance(predicate.value, int)
    lo, hi = spec.threshold_bounds(predicate.op)
    test = HOLDS[predicate.op]
    start, move = predicate.value, direction * spec.step
    before = test(value, start)
    kept = None if keep is None else test(keep, start)

    flips: list[int] = []
    if cross is not False:
        # Truth on ``value`` is monotone in the threshold and can only flip near ``value``, so
        # the scan starts a couple of steps short of it instead of walking the whole grid.
        first = max(1, (value - start) * direction // spec.step - 2)
        for k in range(first, first + NEAR + 4):
            t = start + k * move
            # (with ``keep``: a threshold that moves the old fact across too does not count)
            if (
                lo <= t <= hi
                and test(value, t) != before
                and (keep is None or test(keep, t) == kept)
            ):
                flips.append(t)
                if len(flips) == NEAR:
                    break
    keeps: list[int] = []
    if cross is not True:
        for k in range(1, 2 * NEAR + 1):
            t = start + k * move
            if (
                lo <= t <= hi
                and test(value, t) == before
                and (keep is None or test(keep, t) == kept)
            ):
                keeps.append(t)
    if cross is True:
        pool = flips
    elif cross is False:
        pool = keeps
    else:  # candidates lie on one side of ``start``, so their distances are distinct
        pool = sorted(set(flips + keeps), key=lambda c: abs(c - start))[: 2 * NEAR]
    return rng.choice(pool) if pool else None


def cuts(predicate: Predicate, step: int) -> tuple[int, ...]:
    """Grid points after which the predicate's truth may change (values ``x`` vs ``x + step``)."""
    if predicate.op == "between":
        lo, hi = predicate.band
        return (lo - step, hi)
    if predicate.op in ("<=", ">"):
        return (predicate.threshold,)
    return (predicate.threshold - step,)


def constant_interval(
    spec: FieldSpec, predicates: tuple[Predicate, ...], value: int
) -> tuple[int, int]:
    """The widest grid interval around ``value`` on which no predicate changes truth."""
    low, high = spec.minimum, spec.maximum
    for predicate in predicates:
        for cut in cuts(predicate, spec.step):
            if cut < value:
                low = max(low, cut + spec.step)
            else:
                high = min(high, cut)
    return low, high


def pick_value(
    spec: FieldSpec,
    value: int,
    rng: random.Random,
    keep: tuple[Predicate, ...],
    flip: Predicate | None,
) -> int | None:
    """A new grid value for a numeric field.

    With ``flip`` set: a value on the other side of ``flip`` (nearest first, up to NEAR more
    steps). Otherwise: a value with the same truth as ``value`` on every predicate in ``keep``
    (a move that crosses no threshold), usually a nearby one.
    """
    step = spec.step
    if flip is not None:
        low, high = constant_interval(spec, (flip,), value)
        pool = [low - k * step for k in range(1, NEAR + 1) if low - k * step >= spec.minimum]
        pool += [high + k * step for k in range(1, NEAR + 1) if high + k * step <= spec.maximum]
        pool = sorted(pool, key=lambda v: abs(v - value))[:NEAR]
        return rng.choice(pool) if pool else None
    low, high = constant_interval(spec, keep, value)
    if low == high:
        return None
    if rng.random() < 0.7:
        pool = [value + k * step for k in range(-2 * NEAR, 2 * NEAR + 1) if k]
        pool = [v for v in pool if low <= v <= high]
        return rng.choice(pool)
    choice = value
    while choice == value:
        choice = low + rng.randrange((high - low) // step + 1) * step
    return choice
