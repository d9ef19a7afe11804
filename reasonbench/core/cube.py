"""The judgment cube: the verdicts of all 2^k old/new hybrids.

Verdicts are stored indexed by cell mask (``verdicts[mask]``) so lookups are O(1); the JSON form
lists cells in the documented cell order (see :mod:`reasonbench.core.sources`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.core.adjudicator import Adjudicator, check_verdict
from reasonbench.core.sources import (
    GNA,
    cell_key,
    cell_order,
    full_mask,
    parse_cell_key,
    validate_sources,
)
from reasonbench.core.state import EvaluatorState, hybrid

Oracle = Callable[[int], str]
"""A black-box verdict source: cell mask -> verdict (one call = one adjudicator query)."""


@dataclass(frozen=True)
class Cube:
    """All 2^k cell verdicts for one (old, new) transition."""

    sources: tuple[str, ...]
    verdicts: tuple[str, ...]  # indexed by cell mask

    def __post_init__(self) -> None:
        validate_sources(self.sources)
        if len(self.verdicts) != 1 << len(self.sources):
            raise ValueError(
                f"a cube over {len(self.sources)} sources needs {1 << len(self.sources)} cells, "
                f"got {len(self.verdicts)}"
            )

    @property
    def k(self) -> int:
        return len(self.sources)

    @property
    def old(self) -> str:
        return self.verdicts[0]

    @property
    def new(self) -> str:
        return self.verdicts[full_mask(self.k)]

    @property
    def changed(self) -> bool:
        return self.old != self.new

    def __getitem__(self, mask: int) -> str:
        return self.verdicts[mask]

    def in_cell_order(self) -> tuple[str, ...]:
        """Verdicts listed in the documented cell order."""
        return tuple(self.verdicts[m] for m in cell_order(self.k))

    def oracle(self) -> Oracle:
        return self.verdicts.__getitem__

    def cells(self) -> dict[str, str]:
        """JSON cell map, keys in cell order: ``{"": v, "G": v, ..., "G+N+A": v}``."""
        return {cell_key(m, self.sources): self.verdicts[m] for m in cell_order(self.k)}

    def to_json(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "cells": self.cells()}

    @classmethod
    def from_cells(cls, cells: Mapping[str, str], sources: tuple[str, ...] = GNA) -> Cube:
        """Parse a JSON cell map; ``ValueError`` names an unknown source, missing or extra cell."""
        validate_sources(sources)
        k = len(sources)
        table: list[str | None] = [None] * (1 << k)
        for key, verdict in cells.items():
            if not isinstance(key, str):
                raise ValueError(f"cell key {key!r} is not a string")
            try:
                mask = parse_cell_key(key, sources)
            except ValueError as exc:
                raise ValueError(f"cell {key!r}: {exc}") from None
            if table[mask] is not None:
                raise ValueError(f"cell {key!r} given twice (as {cell_key(mask, sources)!r})")
            if not isinstance(verdict, str) or not verdict:
                raise ValueError(
                    f"cell {key!r}: verdict must be a non-empty string, got {verdict!r}"
                )
            table[mask] = verdict
        missing = [cell_key(m, sources) for m in cell_order(k) if table[m] is None]
        if missing:
            shown = ", ".join(repr(key) for key in missing[:5])
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise ValueError(f"missing cell(s) {shown}{more}")
        return cls(sources, tuple(v for v in table if v is not None))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Cube:
        return cls.from_cells(data["cells"], tuple(data["sources"]))

    @classmethod
    def from_oracle(cls, oracle: Oracle, sources: tuple[str, ...] = GNA) -> Cube:
        return cls(sources, tuple([oracle(m) for m in range(1 << len(sources))]))


def state_oracle(
    adjudicator: Adjudicator, old: EvaluatorState[Any], new: EvaluatorState[Any]
) -> Oracle:
    """The oracle that executes hybrid H(S) of ``old``/``new`` through ``adjudicator``."""

    def query(mask: int) -> str:
        return check_verdict(adjudicator, adjudicator.adjudicate(hybrid(old, new, mask)))

    return query


def execute_cube(
    adjudicator: Adjudicator, old: EvaluatorState[Any], new: EvaluatorState[Any]
) -> Cube:
    """Execute every hybrid of ``old``/``new`` through ``adjudicator``: the gold cube."""
    return Cube.from_oracle(state_oracle(adjudicator, old, new), old.sources)
