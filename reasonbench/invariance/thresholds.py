"""Threshold-shift pairs (principle 2): the strict rule in strict wording vs a relaxed rule in lax
wording, with the expected direction of the verdict change computed by execution.

One numeric threshold of the revised rule is relaxed — moved so that more cases are approved
(an approve item's predicate holds for more values, a deny item's for fewer) — preferably just
past the case's own value, and the same predicate is relaxed wherever it appears in the old
rule too (the organisation relaxed its policy, in both versions). Relaxing is monotone: no
verdict can move from approve to deny. Both sides are executed; the expected change of the
revised verdict is ``deny -> approve`` ("to_lax") or none, and anything else raises.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from reasonbench.core.cube import execute_cube
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.model import APPROVE, DENY, Condition, Norm, Predicate
from reasonbench.strata.organizational.schema import Clause
from reasonbench.strata.organizational.sites import (
    approval_sign,
    loosen_direction,
    norm_sites,
    pick_threshold,
)

__all__ = ["TO_LAX", "Shift", "relax", "relaxed_transition", "shift_options"]

TO_LAX, NONE = "to_lax", "none"


@dataclass(frozen=True)
class Shift:
    """Threshold ``strict`` of ``field op`` in items with ``outcome`` becomes ``lax``."""

    field: str
    op: str
    outcome: str
    strict: int
    lax: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shift:
        return cls(**data)


def relax(norm: Norm, shift: Shift) -> Norm:
    """Every occurrence of the strict predicate (in items of the shift's outcome) relaxed."""
    strict = Predicate(shift.field, shift.op, shift.strict)
    lax = Predicate(shift.field, shift.op, shift.lax)

    def item(c: Condition) -> Condition:
        if c.outcome != shift.outcome:
            return c
        return Condition(tuple(lax if p == strict else p for p in c.when), c.outcome)

    return norm.revised(
        conditions=tuple(item(c) for c in norm.conditions),
        exceptions=tuple(item(e) for e in norm.exceptions),
    )


def relaxed_transition(transition: Transition, shift: Shift) -> Transition:
    def state(s: Any) -> Any:
        _, norm, _ = unpack(s)
        return s.replace(N=relax(norm, shift))

    return Transition(
        transition.unit_id,
        state(transition.old),
        state(transition.new),
        (*transition.operators, "threshold_shift"),
        transition.context,
    )


def direction(strict: str, lax: str, where: str) -> str:
    if strict == lax:
        return NONE
    if (strict, lax) == (DENY, APPROVE):
        return TO_LAX
    raise AssertionError(f"{where}: relaxing moved a verdict {strict} -> {lax} (not monotone)")


def shift_options(
    clause: Clause, transition: Transition, rng: random.Random
) -> list[tuple[Shift, str]]:
    """Every relaxation of a numeric threshold of the revised rule, with its executed direction.

    Each must keep the old endpoint monotone too (checked by execution)."""
    grounds, norm, _ = unpack(transition.new)
    strict_new = ADJUDICATOR.adjudicate(transition.new)
    strict_old = ADJUDICATOR.adjudicate(transition.old)
    options: list[tuple[Shift, str]] = []
    seen = set()
    for _, predicate, outcome in norm_sites(norm, numeric=True):
        spec = clause.spec(predicate.field)
        sign = approval_sign(outcome) * loosen_direction(predicate.op)
        value = int(grounds[predicate.field])
        new = pick_threshold(spec, predicate, value, sign, rng, True)
        if new is None:
            new = pick_threshold(spec, predicate, value, sign, rng, None)
        if new is None:
            continue
        shift = Shift(predicate.field, predicate.op, outcome, predicate.threshold, new)
        if shift in seen:
            continue
        seen.add(shift)
        lax = relaxed_transition(transition, shift)
        where = f"{transition.unit_id} {shift}"
        direction(strict_old, ADJUDICATOR.adjudicate(lax.old), where)
        options.append((shift, direction(strict_new, ADJUDICATOR.adjudicate(lax.new), where)))
    return options


def choose_shift(
    clause: Clause, transition: Transition, rng: random.Random
) -> tuple[Shift, str, Transition] | None:
    """A relaxation, preferring one that changes the revised verdict (so that directional
    sensitivity is measured where execution says a change is due); ``None`` if none exists."""
    options = shift_options(clause, transition, rng)
    if not options:
        return None
    flipping = [o for o in options if o[1] == TO_LAX]
    shift, expected = rng.choice(flipping or options)
    lax = relaxed_transition(transition, shift)
    # the relaxed pair must be executable as a whole: compute its cube once (it raises otherwise)
    execute_cube(ADJUDICATOR, lax.old, lax.new)
    return shift, expected, lax
