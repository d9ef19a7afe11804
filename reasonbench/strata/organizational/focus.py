"""What an operator may aim at: the clause, plus the facts already revised in this composition.

Real revisions cluster: a claim is amended *and* the cap it sits under is raised; a case moves to
another region *and* that region is brought into scope. When :mod:`.compose` chains operators, it
hands later ones a :class:`Focus` naming the facts the earlier ones touched (revised grounds, and
fields of rule lines a norm revision changed), and they prefer edits about those facts. Called
on a bare :class:`Clause` (a single-source change, or a caller outside compose), there is no focus.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from reasonbench.strata.organizational.model import Grounds, Value
from reasonbench.strata.organizational.schema import Clause

FOCUS_BIAS = 0.8  # chance an operator with a focus puts focused candidates first
SEPARATE = 0.55  # chance a targeted edit separates the revised fact from the old one
AIM_OLD = 0.25  # chance it aims at the old fact instead
MIRROR = 0.8  # with ``Focus.mirror``: chance it aims at the old fact, keeping the revised one

T = TypeVar("T")


@dataclass(frozen=True)
class Focus:
    """The clause, the touched fields, and the grounds before the composition (if G changed)."""

    clause: Clause
    fields: tuple[str, ...] = ()
    before: Grounds | None = None
    mirror: bool = False  # aim at the old fact and keep the revised one (ambiguous receipts)


def split(unit: Clause | Focus) -> tuple[Clause, tuple[str, ...]]:
    if isinstance(unit, Focus):
        return unit.clause, unit.fields
    return unit, ()


def aim(
    unit: Clause | Focus, name: str, current: Value, rng: random.Random
) -> tuple[Value, Value | None]:
    """Which fact a targeted edit on ``name`` aims at: ``(target, keep)``.

    Without a revised fact: the current one, nothing to keep. With one (the grounds changed
    earlier in this composition): usually *separate* them (hit the revised fact, keep the old
    one's standing: receipts of size 2 and 3), sometimes aim at the old fact (the revision
    would also settle the old case: receipt-ambiguous cases), else the current fact alone.
    With ``mirror`` (a draw that wants an ambiguous receipt), usually the reverse separation:
    hit the old fact and keep the revised one's standing, so that this revision alone gives
    the old case the verdict the revised facts already get.
    """
    if isinstance(unit, Focus) and unit.before is not None:
        old = unit.before.mapping.get(name)
        if old is not None and old != current:
            draw = rng.random()
            if unit.mirror and draw < MIRROR:
                return old, current
            if draw < SEPARATE:
                return current, old
            if draw < SEPARATE + AIM_OLD:
                return old, None
    return current, None


def prefer(
    items: Sequence[T],
    field_of: Callable[[T], Sequence[str]],
    focus: tuple[str, ...],
    rng: random.Random,
) -> list[T]:
    """``items`` in random order, usually with those about a focused field first."""
    ordered = list(items)
    rng.shuffle(ordered)
    if focus and rng.random() < FOCUS_BIAS:
        ordered.sort(key=lambda item: not any(f in focus for f in field_of(item)))
    return ordered
