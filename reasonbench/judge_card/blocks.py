"""The building blocks of a card (headings, paragraphs, figures; tables are
:class:`reasonbench.reports.render.Table`) and how numbers are shown in them: an undefined or
absent value as the tables' :data:`~reasonbench.reports.render.UNDEFINED`, everywhere on a card."""

from __future__ import annotations

from dataclasses import dataclass

from reasonbench.invariance.report import Estimate
from reasonbench.reports.render import UNDEFINED, Table, fmt

__all__ = ["UNDEFINED", "Block", "Figure", "Heading", "Para", "est", "rate", "show"]


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Figure:
    name: str
    caption: str


Block = Heading | Para | Table | Figure


def rate(value: float | None) -> str:
    return UNDEFINED if value is None else f"{100 * value:.1f}%"


def show(value: object) -> str:
    """A configuration or data value as a reader expects it, never a Python repr: yes/no,
    ``—`` for null or empty, ``key: value`` lists, plain numbers."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {show(v)}" for k, v in value.items()) or UNDEFINED
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(show(v) for v in value) or UNDEFINED
    return fmt(value, None) or UNDEFINED


def est(e: Estimate, percent: bool = True) -> str:
    """A value with its interval: ``13.9% [8.6, 19.3]`` (or ``0.70 [0.55, 0.81]``)."""
    if e.value is None:
        return UNDEFINED

    def show(v: float) -> str:
        return f"{100 * v:.1f}" if percent else f"{v:.2f}"

    unit = "%" if percent else ""
    if e.low is None or e.high is None:
        return f"{show(e.value)}{unit}"
    return f"{show(e.value)}{unit} [{show(e.low)}, {show(e.high)}]"
