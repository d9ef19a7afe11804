"""The building blocks of a card (headings, paragraphs, figures; tables are
:class:`reasonbench.reports.render.Table`) and how numbers are shown in them."""

from __future__ import annotations

from dataclasses import dataclass

from reasonbench.invariance.report import Estimate
from reasonbench.reports.render import Table

__all__ = ["Block", "Figure", "Heading", "Para", "est", "rate"]


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
    return "—" if value is None else f"{100 * value:.1f}%"


def est(e: Estimate, percent: bool = True) -> str:
    """A value with its interval: ``13.9% [8.6, 19.3]`` (or ``0.70 [0.55, 0.81]``)."""
    if e.value is None:
        return "—"

    def show(v: float) -> str:
        return f"{100 * v:.1f}" if percent else f"{v:.2f}"

    unit = "%" if percent else ""
    if e.low is None or e.high is None:
        return f"{show(e.value)}{unit}"
    return f"{show(e.value)}{unit} [{show(e.low)}, {show(e.high)}]"
