"""Pieces every table uses: percentages, "not run" rows, the paper's value beside ours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.analysis.bootstrap import Interval
from reasonbench.analysis.record import Effect
from reasonbench.reports.lookup import NOT_RUN, Row, View
from reasonbench.reports.render import Cell, fmt, pct

__all__ = [
    "NOT_RUN",
    "Cell",
    "References",
    "Row",
    "View",
    "ci_cells",
    "identity",
    "paper",
    "pct",
    "seeds",
]


def paper(figures: Mapping[str, Any], *path: str) -> Any:
    """The paper's figure at ``path`` (``None`` when the paper reports none)."""
    tree: Any = figures
    for key in path:
        if not isinstance(tree, Mapping) or key not in tree:
            return None
        tree = tree[key]
    return tree


class References:
    """The paper's figures as one table shows them. A figure that the paper's own numbers
    contradict (``footnotes`` of data/paper_figures.yaml, keyed by its dotted path) is printed
    with a marker, ``54.80 [1]``, and :meth:`note` says what is inconsistent: never silently."""

    def __init__(self, figures: Mapping[str, Any]) -> None:
        self.figures = figures
        self.notes: list[str] = []

    def marker(self, *path: str) -> str:
        """`` [n]`` for a figure with a footnote (numbered in order of use), else ""."""
        note = paper(self.figures, "footnotes", ".".join(path))
        if note is None:
            return ""
        if note not in self.notes:
            self.notes.append(str(note))
        return f" [{self.notes.index(str(note)) + 1}]"

    def get(self, *path: str) -> Cell:
        """The figure at ``path`` (``None`` when the paper reports none), marked if footnoted."""
        value = paper(self.figures, *path)
        if not isinstance(value, int | float | str):
            return None  # absent, or a section rather than a figure
        mark = self.marker(*path)
        return f"{fmt(value)}{mark}" if mark else value

    def text(self, *path: str) -> str:
        """The figure at ``path`` for a table's note, as the paper writes it, marked if
        footnoted ("—" when the paper reports none)."""
        value = paper(self.figures, *path)
        return "—" if value is None else f"{value}{self.marker(*path)}"

    def note(self) -> str:
        """The footnotes used so far, "[1] … [2] …" (empty when none)."""
        return " ".join(f"[{i}] {text}" for i, text in enumerate(self.notes, 1))


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
