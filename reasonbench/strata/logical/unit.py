"""A world, the independent unit of the logical stratum, and what is cached per unit.

A world reserves a few entities, *core* properties (queryable, usable as premises), *sink*
properties and one relation, and holds its base (old) state; ``sampler.py`` draws worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rule, Rules


@dataclass(frozen=True)
class World:
    """One independent unit: its reserved vocabulary and its base (old) state.

    ``target`` is set only on the copy a case hands to its operators (see :meth:`aim`): the
    atom whose derivation the revision is aimed at, so that edits of several sources meet.
    """

    unit_id: str
    entities: tuple[str, ...]
    properties: tuple[str, ...]
    sinks: tuple[str, ...]
    relation: str
    state: EvaluatorState[Any]
    target: Atom | None = None
    # The operators' scratch memo for one draw, on an aimed copy (see ops/kit.py ``per_draw``).
    memo: dict[tuple[str, int], tuple[Any, Any]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    # What depends only on the unit (its base state and vocabulary), shared by its aimed copies
    # and kept for its lifetime: a bounded handful of entries (see :func:`per_world`).
    cache: dict[Hashable, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def aim(self, target: Atom | None) -> World:
        """This world aimed at ``target``, with an empty memo (a shallow copy: every draw
        re-aims a few times)."""
        world = object.__new__(World)
        world.__dict__.update(self.__dict__)
        object.__setattr__(world, "target", target)
        object.__setattr__(world, "memo", {})
        return world

    def names(self) -> frozenset[str]:
        return frozenset((*self.entities, *self.properties, *self.sinks, self.relation))

    def is_core(self, rule: Rule) -> bool:
        return rule.conclusion[0] not in self.sinks

    def queryable(self) -> tuple[Atom, ...]:
        """Atoms a case may ask about: core properties and the relation over world entities."""
        return queryable_atoms(self.entities, self.properties, self.relation)


V = TypeVar("V")


def per_world(world: World, key: Hashable, compute: Callable[[World], V]) -> V:
    """``compute(world)`` for what depends only on the unit, not on its target or on a draw:
    computed once per unit (``key`` names it; at most a few per target) and kept on it."""
    found = world.cache.get(key, _MISSING)
    if found is _MISSING:
        found = world.cache[key] = compute(world)
    value: V = found
    return value


_MISSING: Any = object()


def parts(state: EvaluatorState[Any]) -> tuple[Facts, Rules, Authority]:
    """The grounds, norms and authority of a logical state (a hot path: unpacked directly)."""
    if state.sources == GNA:
        facts, rules, mask = state.components
        return facts, rules, mask
    return state["G"], state["N"], state["A"]


@lru_cache(maxsize=4096)
def queryable_atoms(
    entities: tuple[str, ...], properties: tuple[str, ...], relation: str
) -> tuple[Atom, ...]:
    unary: list[Atom] = [(p, e) for p in properties for e in entities]
    binary: list[Atom] = [(relation, a, b) for a in entities for b in entities if a != b]
    return tuple(sorted(unary + binary))
