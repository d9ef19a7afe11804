"""The three components of an organizational state: grounds (G), norm (N) and scope (A).

All components are frozen dataclasses over tuples, so the core can compare them with ``==`` and
hash them. Predicates are compiled once into closures (kept out of ``==``/``hash``) because the
benchmark build executes ~200k cube cells and evaluation must stay at microseconds per state.

Execution semantics (documented in docs/strata/organizational.md):

1. authority first: if any scope test fails, the verdict is ``refer`` (never a merits ruling);
2. exceptions, in listed order: the first whose predicates all hold decides;
3. conditions: if any deny-condition fires the verdict is ``deny`` (deny overrides); otherwise if
   any approve-condition fires it is ``approve``;
4. otherwise the norm's default disposition.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

Value = int | bool | str
PredicateValue = int | bool | tuple[str, ...] | tuple[int, int]
Test = Callable[[Mapping[str, Value]], bool]

APPROVE, DENY, REFER = "approve", "deny", "refer"
LABELS = frozenset({APPROVE, DENY, REFER})
OUTCOMES = (APPROVE, DENY)
NUMERIC_OPS = ("<=", "<", ">=", ">")
OPS = (*NUMERIC_OPS, "between", "is", "in", "not_in")
NEGATION = {"<=": ">", ">": "<=", "<": ">=", ">=": "<", "in": "not_in", "not_in": "in"}


def _compile(field: str, op: str, value: PredicateValue) -> Test:
    # One closure per operator: a dispatch on ``op`` at every call would triple evaluation time.
    # Grounds values of a numeric field are ints (the schema guarantees it), hence the casts.
    if op in NUMERIC_OPS and isinstance(value, int):
        t = value
        if op == "<=":
            return lambda v: cast(int, v[field]) <= t
        if op == "<":
            return lambda v: cast(int, v[field]) < t
        if op == ">=":
            return lambda v: cast(int, v[field]) >= t
        return lambda v: cast(int, v[field]) > t
    if op == "is" and isinstance(value, bool):
        return lambda v: v[field] is value
    if op in ("in", "not_in") and isinstance(value, tuple):
        members = frozenset(str(m) for m in value)
        if op == "in":
            return lambda v: v[field] in members
        return lambda v: v[field] not in members
    if op == "between" and isinstance(value, tuple) and len(value) == 2:
        lo, hi = int(value[0]), int(value[1])
        return lambda v: lo <= cast(int, v[field]) <= hi
    raise ValueError(f"operator {op!r} cannot take value {value!r}; operators: {list(OPS)}")


@dataclass(frozen=True)
class Predicate:
    """``field op value``: a threshold, a required flag, or an enum membership test."""

    field: str
    op: str
    value: PredicateValue
    test: Test = dataclasses.field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "test", _compile(self.field, self.op, self.value))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Predicate, (self.field, self.op, self.value))  # closures do not pickle

    def with_value(self, value: PredicateValue) -> Predicate:
        return Predicate(self.field, self.op, value)

    # Typed views of ``value`` (its type follows from ``op``; these keep callers type-safe).
    @property
    def threshold(self) -> int:
        if self.op not in NUMERIC_OPS or not isinstance(self.value, int):
            raise TypeError(f"{self.op!r} predicate on {self.field!r} has no threshold")
        return self.value

    @property
    def members(self) -> tuple[str, ...]:
        if self.op not in ("in", "not_in") or not isinstance(self.value, tuple):
            raise TypeError(f"{self.op!r} predicate on {self.field!r} has no member list")
        return tuple(str(v) for v in self.value)

    @property
    def band(self) -> tuple[int, int]:
        if self.op != "between" or not isinstance(self.value, tuple):
            raise TypeError(f"{self.op!r} predicate on {self.field!r} is not a band")
        low, high = self.value
        return int(low), int(high)


@dataclass(frozen=True)
class Condition:
    """A conjunction of predicates and the outcome it yields when all of them hold."""

    when: tuple[Predicate, ...]
    outcome: str

    def fires(self, values: Mapping[str, Value]) -> bool:
        for predicate in self.when:  # noqa: SIM110 - a plain loop is ~2x faster than all(genexpr)
            if not predicate.test(values):
                return False
        return True

    def fields(self) -> tuple[str, ...]:
        return tuple(p.field for p in self.when)


@dataclass(frozen=True)
class Norm:
    """The clause's rule: conditions, overriding exceptions and a default disposition."""

    default: str
    conditions: tuple[Condition, ...]
    exceptions: tuple[Condition, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Norm, (self.default, self.conditions, self.exceptions))  # without the caches

    def decide(self, values: Mapping[str, Value]) -> str:
        """The merits verdict (``approve`` or ``deny``) under this rule."""
        for exception in self.exceptions:
            if exception.fires(values):
                return exception.outcome
        approved = False
        for condition in self.conditions:
            if condition.fires(values):
                if condition.outcome == DENY:
                    return DENY
                approved = True
        return APPROVE if approved else self.default

    def items(self) -> tuple[Condition, ...]:
        return self.conditions + self.exceptions

    def revised(
        self,
        *,
        default: str | None = None,
        conditions: tuple[Condition, ...] | None = None,
        exceptions: tuple[Condition, ...] | None = None,
    ) -> Norm:
        """A copy with some parts replaced (``dataclasses.replace``, without its overhead)."""
        return Norm(
            self.default if default is None else default,
            self.conditions if conditions is None else conditions,
            self.exceptions if exceptions is None else exceptions,
        )

    # Cached on first use (in the instance dict, outside ==, hash and repr): operators and the
    # sampler ask for them many times per draw.
    @functools.cached_property
    def _predicates(self) -> tuple[Predicate, ...]:
        return tuple(p for item in self.conditions + self.exceptions for p in item.when)

    @functools.cached_property
    def _fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.field for p in self._predicates))

    def predicates(self) -> tuple[Predicate, ...]:
        return self._predicates

    def fields(self) -> tuple[str, ...]:
        return self._fields


@dataclass(frozen=True)
class Scope:
    """Authority: the case may be governed only if every test holds (else ``refer``)."""

    tests: tuple[Predicate, ...]

    def admits(self, values: Mapping[str, Value]) -> bool:
        for test in self.tests:  # noqa: SIM110 - a plain loop is ~2x faster than all(genexpr)
            if not test.test(values):
                return False
        return True

    def fields(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.field for t in self.tests))


@dataclass(frozen=True)
class Grounds:
    """The case facts: one value per schema field, in schema order (plus any distractor)."""

    values: tuple[tuple[str, Value], ...]
    mapping: dict[str, Value] = dataclasses.field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mapping", dict(self.values))
        if len(self.mapping) != len(self.values):
            raise ValueError(f"grounds name a field twice: {[name for name, _ in self.values]}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Grounds, (self.values,))

    def __getitem__(self, name: str) -> Value:
        return self.mapping[name]

    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.values)

    def replace(self, name: str, value: Value) -> Grounds:
        """A copy with one existing field set to ``value`` (fields are never added or removed)."""
        if name not in self.mapping:
            raise KeyError(f"grounds have no field {name!r}")
        return Grounds(tuple((n, value if n == name else v) for n, v in self.values))

    def extended(self, name: str, value: Value) -> Grounds:
        """A copy with one new field appended (used for distractor fields only)."""
        return Grounds((*self.values, (name, value)))
