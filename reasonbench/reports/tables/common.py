"""Pieces every table uses: percentages, "not run" rows, the paper's value beside ours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.analysis.bootstrap import Interval
from reasonbench.analysis.record import Effect
from reasonbench.reports.lookup import NOT_RUN, Row, View
from reasonbench.reports.render import Cell, pct

__all__ = ["NOT_RUN", "Cell", "Row", "View", "ci_cells", "identity", "paper", "pct", "seeds"]


def paper(figures: Mapping[str, Any], *path: str) -> Any:
    """The paper's figure at ``path`` (``None`` when the paper reports none)."""
    tree: Any = figures
    for key in path:
        if not isinstance(tree, Mapping) or key not in tree:
            return None
        tree = tree[key]
    return tree


def identity(row: Row) -> list[Cell]:
    """The method, its role (— for a method without one) and its target."""
    target = None if row.entry is None else row.entry.info.target
    return [row.method, row.role, target]


def seeds(row: Row) -> Cell:
    return NOT_RUN if row.entry is None else len(row.entry.seeds)


def ci_cells(ci: Interval | Effect | None) -> list[Cell]:
    """estimate, CI low, CI high in percentage points."""
    if ci is None:
        return [None, None, None]
    return [pct(ci.estimate), pct(ci.low), pct(ci.high)]


def header(*names: str) -> Sequence[str]:
    return list(names)
