"""Grounds schemas (typed fields with ranges) and clauses, the stratum's independent units.

Numeric kinds (``int``, ``money``, ``duration``) hold integers on a grid ``minimum + k * step``;
thresholds live on the same grid, so "just across a threshold" is always one step away and every
value an operator produces stays inside the schema (any hybrid stays executable).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from reasonbench.strata.organizational.model import Grounds, Norm, Scope

NUMERIC_KINDS = ("int", "money", "duration")
KINDS = (*NUMERIC_KINDS, "bool", "enum")


@dataclass(frozen=True)
class FieldSpec:
    """One typed grounds field. ``unit`` is a currency code for money, a unit word otherwise."""

    name: str
    kind: str
    label: str
    minimum: int = 0
    maximum: int = 0
    step: int = 1
    unit: str = ""
    unit_one: str = ""  # singular unit word ("person" for "people")
    values: tuple[str, ...] = ()
    yes: str = ""  # bool phrasing when true ("an itemised receipt is attached")
    no: str = ""
    desired: bool = True  # the bool value a requirement asks for (false for risk flags)

    @property
    def numeric(self) -> bool:
        return self.kind in NUMERIC_KINDS

    def admits(self, value: object) -> bool:
        """Whether ``value`` is a legal value of this field (type, range, grid, enum member)."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "enum":
            return isinstance(value, str) and value in self.values
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.minimum <= value <= self.maximum and (value - self.minimum) % self.step == 0

    def grid(self) -> range:
        return range(self.minimum, self.maximum + 1, self.step)

    def clip(self, value: int) -> int:
        """The grid value nearest to ``value`` inside the range."""
        value = min(max(value, self.minimum), self.maximum)
        return self.minimum + round((value - self.minimum) / self.step) * self.step

    def threshold_bounds(self, op: str) -> tuple[int, int]:
        """Thresholds for ``op`` that leave both outcomes of the predicate possible."""
        if op in ("<=", ">"):
            return self.minimum, self.maximum - self.step
        if op in ("<", ">="):
            return self.minimum + self.step, self.maximum
        return self.minimum, self.maximum


@dataclass(frozen=True)
class Clause:
    """An independent unit: a grounds schema, the clause's rule and its authority scope."""

    unit_id: str
    domain: str
    title: str
    subject: str  # what a case is called in the clause text ("claim", "request")
    fields: tuple[FieldSpec, ...]
    rule: Norm
    scope: Scope
    subject_plural: str = ""
    by_name: dict[str, FieldSpec] = dataclasses.field(
        init=False, repr=False, compare=False, hash=False
    )
    # Derived data other modules compute once per clause (e.g. the sampler's per-field plans).
    cache: dict[str, Any] = dataclasses.field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {f.name: f for f in self.fields})
        object.__setattr__(self, "cache", {})
        if not self.subject_plural:
            object.__setattr__(self, "subject_plural", self.subject + "s")

    def spec(self, name: str) -> FieldSpec:
        try:
            return self.by_name[name]
        except KeyError:
            raise KeyError(f"clause {self.unit_id!r} has no field {name!r}") from None

    def referenced(self, rule: Norm | None = None, scope: Scope | None = None) -> tuple[str, ...]:
        """Fields the (given or own) rule and scope mention, in schema order."""
        used = set((rule or self.rule).fields()) | set((scope or self.scope).fields())
        return tuple(f.name for f in self.fields if f.name in used)

    def check_grounds(self, grounds: Grounds) -> None:
        """``ValueError`` naming the clause and field unless every schema field has a legal value."""
        for spec in self.fields:
            if spec.name not in grounds.mapping:
                raise ValueError(f"clause {self.unit_id!r}: grounds lack field {spec.name!r}")
            value = grounds[spec.name]
            if not spec.admits(value):
                raise ValueError(
                    f"clause {self.unit_id!r}: field {spec.name!r}: illegal value {value!r}"
                )
