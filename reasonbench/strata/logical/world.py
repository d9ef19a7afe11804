"""The three components of a logical evaluator state (their JSON form: ``world_json.py``).

- grounds G = :class:`Facts`, a set of ground atoms;
- norms N = :class:`Rules`, positive Horn rules with at most one variable ``X``;
- authority A = :class:`Authority`, the ids of the rules this evaluator may apply.

An atom is a plain tuple ``(predicate, arg)`` or ``(predicate, arg1, arg2)``: tuples hash and
compare fast, which matters because chaining touches atoms millions of times per benchmark build.
Components keep their members in one canonical sorted order, so ``==`` is set equality and
iteration never depends on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

Atom = tuple[str, ...]
VARIABLE = "X"
FORMAT = "reasonbench.logical/1"
MAX_PREMISES = 3
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def atom_str(atom: Atom) -> str:
    """Predicate notation, e.g. ``kind(bob)``, ``likes(X,anne)``."""
    return f"{atom[0]}({','.join(atom[1:])})"


_VALID: set[str] = set()  # names already checked (bounded): operators build many rules per draw


def is_name(name: object) -> bool:
    """Whether ``name`` is a valid predicate or entity identifier."""
    if not isinstance(name, str):
        return False
    if name in _VALID:
        return True
    if _NAME.match(name) is None:
        return False
    if len(_VALID) < 65536:
        _VALID.add(name)
    return True


def check_atom(atom: Atom, *, ground: bool) -> Atom:
    """Return ``atom`` if well formed (lower-case names, arity 1 or 2); else ``ValueError``."""
    if not isinstance(atom, tuple) or len(atom) not in (2, 3):
        raise ValueError(f"an atom is (predicate, arg) or (predicate, arg, arg), got {atom!r}")
    for i, part in enumerate(atom):
        if isinstance(part, str) and part in _VALID:
            continue
        if i > 0 and part == VARIABLE and not ground:
            continue
        if not is_name(part):
            what = "predicate" if i == 0 else "entity"
            raise ValueError(f"atom {atom!r}: {what} {part!r} must match {_NAME.pattern}")
    return atom


@dataclass(frozen=True)
class Rule:
    """``premises -> conclusion``; ``X`` occurs in the conclusion iff it occurs in a premise.

    That restriction (range restriction both ways) is what makes grounding over the entities
    of the state exact, and keeps a rule about one entity from reaching another one.
    """

    id: int
    premises: tuple[Atom, ...]
    conclusion: Atom
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.id, bool) or not isinstance(self.id, int) or self.id < 1:
            raise ValueError(f"rule id must be a positive int, got {self.id!r}")
        if not 1 <= len(self.premises) <= MAX_PREMISES:
            raise ValueError(f"rule {self.id}: needs 1..{MAX_PREMISES} premises")
        for atom in (*self.premises, self.conclusion):
            check_atom(atom, ground=False)
        if len(set(self.premises)) != len(self.premises):
            raise ValueError(f"rule {self.id}: repeated premise")
        if self.conclusion in self.premises:
            raise ValueError(f"rule {self.id}: conclusion is also a premise")
        in_premises = any(VARIABLE in p[1:] for p in self.premises)
        if (VARIABLE in self.conclusion[1:]) != in_premises:
            raise ValueError(f"rule {self.id}: X must occur in the conclusion iff in a premise")
        object.__setattr__(self, "_hash", hash((self.id, self.premises, self.conclusion)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:  # recompute the hash (string hashes are per process)
        return (Rule, (self.id, self.premises, self.conclusion))

    @property
    def general(self) -> bool:
        """Whether the rule quantifies over ``X`` (otherwise it is ground)."""
        return VARIABLE in self.conclusion[1:]

    def constants(self) -> set[str]:
        return {t for a in (*self.premises, self.conclusion) for t in a[1:] if t != VARIABLE}

    def body(self) -> tuple[tuple[Atom, ...], Atom]:
        return self.premises, self.conclusion


@dataclass(frozen=True)
class Facts:
    """Grounds: ground atoms, sorted and unique (build with :meth:`of`); hash cached (cache key)."""

    atoms: tuple[Atom, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for atom in self.atoms:
            check_atom(atom, ground=True)
        if list(self.atoms) != sorted(set(self.atoms)):
            raise ValueError("facts must be sorted and unique; build them with Facts.of")
        object.__setattr__(self, "_hash", hash(self.atoms))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, atoms: Iterable[Atom]) -> Facts:
        return cls(tuple(sorted(set(atoms))))

    def __contains__(self, atom: object) -> bool:
        return atom in self.atoms

    def add(self, atom: Atom) -> Facts:
        if atom in self.atoms:
            return self
        check_atom(atom, ground=True)
        i = bisect_left(self.atoms, atom)
        return _trusted(Facts, (*self.atoms[:i], atom, *self.atoms[i:]))

    def remove(self, atom: Atom) -> Facts:
        return _trusted(Facts, tuple(a for a in self.atoms if a != atom))


@dataclass(frozen=True)
class Rules:
    """Norms: rules sorted by id, ids unique. The hash is cached: rule sets key the closure cache."""

    rules: tuple[Rule, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = [r.id for r in self.rules]
        if ids != sorted(set(ids)):
            raise ValueError(f"rule ids must be unique and sorted, got {ids}")
        object.__setattr__(self, "_hash", hash(self.rules))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, rules: Iterable[Rule]) -> Rules:
        return cls(tuple(sorted(rules, key=lambda r: r.id)))

    def ids(self) -> tuple[int, ...]:
        return tuple(r.id for r in self.rules)

    def get(self, rule_id: int) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def put(self, rule: Rule) -> Rules:
        """Add ``rule``, or replace the rule with the same id (an edit keeps its id)."""
        if not isinstance(rule, Rule):
            raise TypeError(f"a rule set holds Rule objects, got {type(rule).__name__}")
        before = [r for r in self.rules if r.id < rule.id]
        after = (r for r in self.rules[len(before) :] if r.id > rule.id)
        return _trusted(Rules, (*before, rule, *after))

    def remove(self, rule_id: int) -> Rules:
        return _trusted(Rules, tuple(r for r in self.rules if r.id != rule_id))


@dataclass(frozen=True)
class Authority:
    """The authority mask: ids of the rules the evaluator may apply, sorted and unique.

    Ids with no rule in the state are allowed and inert, which keeps every hybrid coherent
    (e.g. a revised mask that authorises a rule only the revised norms contain).
    """

    allowed: tuple[int, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for rule_id in self.allowed:
            if isinstance(rule_id, bool) or not isinstance(rule_id, int) or rule_id < 1:
                raise ValueError(f"authority ids must be positive ints, got {rule_id!r}")
        if list(self.allowed) != sorted(set(self.allowed)):
            raise ValueError("authority ids must be sorted and unique; build with Authority.of")
        object.__setattr__(self, "_hash", hash(self.allowed))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, ids: Iterable[int]) -> Authority:
        return cls(tuple(sorted(set(ids))))

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.allowed

    def toggle(self, rule_id: int) -> Authority:
        if rule_id in self.allowed:
            return _trusted(Authority, tuple(i for i in self.allowed if i != rule_id))
        if isinstance(rule_id, bool) or not isinstance(rule_id, int) or rule_id < 1:
            raise ValueError(f"authority ids must be positive ints, got {rule_id!r}")
        i = bisect_left(self.allowed, rule_id)
        return _trusted(Authority, (*self.allowed[:i], rule_id, *self.allowed[i:]))


C = TypeVar("C", Facts, Rules, Authority)
_MEMBERS: dict[type, str] = {Facts: "atoms", Rules: "rules", Authority: "allowed"}


def _trusted(cls: type[C], members: tuple[Any, ...]) -> C:
    """A component from members already checked, sorted and unique (an edit of a valid one):
    edits skip re-validating the whole component, which operators do many times per draw."""
    component: C = object.__new__(cls)
    object.__setattr__(component, _MEMBERS[cls], members)
    object.__setattr__(component, "_hash", hash(members))
    return component


def fresh_rule_id(*parts: Rules | Authority) -> int:
    """An id used by no rule and no mask entry of ``parts`` (so nothing is pre-authorised)."""
    used = [i for p in parts for i in (p.ids() if isinstance(p, Rules) else p.allowed)]
    return max(used, default=0) + 1
