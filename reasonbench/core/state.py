"""Evaluator states and hybrids.

An evaluator state ``I_t`` assigns one component to each declared source (for the paper:
grounds G, norms N, authority A). Components are stratum-specific immutable objects; the core
never looks inside them, which is what lets one cube/receipt engine serve every stratum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from reasonbench.core.sources import validate_sources

C = TypeVar("C")


@dataclass(frozen=True)
class EvaluatorState(Generic[C]):
    """An immutable evaluator state: one component per named source, in declared order."""

    sources: tuple[str, ...]
    components: tuple[C, ...]

    def __post_init__(self) -> None:
        validate_sources(self.sources)
        if len(self.components) != len(self.sources):
            raise ValueError(
                f"state has {len(self.components)} components for {len(self.sources)} sources"
            )

    @classmethod
    def of(cls, **components: C) -> EvaluatorState[C]:
        """Build a state from keyword components, in keyword order: ``of(G=g, N=n, A=a)``."""
        return cls(tuple(components), tuple(components.values()))

    def __getitem__(self, source: str) -> C:
        try:
            return self.components[self.sources.index(source)]
        except ValueError:
            raise KeyError(
                f"unknown source {source!r} (sources are {list(self.sources)})"
            ) from None

    def as_dict(self) -> dict[str, C]:
        return dict(zip(self.sources, self.components, strict=True))

    def replace(self, **components: C) -> EvaluatorState[C]:
        """A copy with some components replaced by name."""
        values = self.as_dict()
        for name, value in components.items():
            if name not in values:
                raise KeyError(f"unknown source {name!r} (sources are {list(self.sources)})")
            values[name] = value
        return EvaluatorState(self.sources, tuple(values[name] for name in self.sources))


def hybrid(old: EvaluatorState[C], new: EvaluatorState[C], mask: int) -> EvaluatorState[C]:
    """H(S): the sources in ``mask`` from ``new``, every other source from ``old``."""
    if old.sources != new.sources:
        raise ValueError(f"old and new declare different sources: {old.sources} vs {new.sources}")
    versions = (old.components, new.components)
    # A list comprehension over indices: this is the innermost loop of every cube execution.
    parts = tuple([versions[mask >> i & 1][i] for i in range(len(old.sources))])
    return _trusted(old.sources, parts)


def _trusted(sources: tuple[str, ...], components: tuple[C, ...]) -> EvaluatorState[C]:
    """Build a state whose parts come from validated states: skips re-validation, since a cube
    builds 2^k hybrids per case and validation would dominate their cost."""
    state: EvaluatorState[C] = object.__new__(EvaluatorState)
    object.__setattr__(state, "sources", sources)
    object.__setattr__(state, "components", components)
    return state


def changed_sources(old: EvaluatorState[Any], new: EvaluatorState[Any]) -> int:
    """Mask of the sources whose components differ between ``old`` and ``new``."""
    if old.sources != new.sources:
        raise ValueError(f"old and new declare different sources: {old.sources} vs {new.sources}")
    mask = 0
    for i, (o, n) in enumerate(zip(old.components, new.components, strict=True)):
        if o != n:
            mask |= 1 << i
    return mask


def state_from_mapping(mapping: Mapping[str, C], sources: tuple[str, ...]) -> EvaluatorState[C]:
    """A state from a mapping keyed by source name; ``KeyError`` names a missing source."""
    missing = [name for name in sources if name not in mapping]
    if missing:
        raise KeyError(f"state is missing source(s) {missing}")
    return EvaluatorState(sources, tuple(mapping[name] for name in sources))
