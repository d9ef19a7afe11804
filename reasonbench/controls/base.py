"""A paired-control kind is one registered object: how it is built from a locked parent case,
the relation a pair of predictions must satisfy, the structural check the audit runs on the
stored pair, and the label reports print. Assembly, the audit, the analysis and the reports read
every control kind from :data:`CONTROL_KINDS`; adding one is one ``register`` call
(docs/extending.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.controls.relations import CellRelation, identical, identical_cells
from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.registry import Registry
from reasonbench.strata.base import Stratum, Transition

__all__ = [
    "CONTROL_KINDS",
    "BuiltControl",
    "ControlError",
    "ControlKind",
    "every_stratum",
    "no_structural_check",
]


class ControlError(RuntimeError):
    """A control that could not be built or certified; names the parent example."""


@dataclass(frozen=True)
class BuiltControl:
    """The control case of one parent: its transition, executed gold and presented order."""

    transition: Transition
    cube: Cube
    receipt: Receipt
    order: tuple[str, ...]


Builder = Callable[
    [Stratum, Transition, Cube, Receipt, tuple[str, ...], random.Random, str], BuiltControl
]
"""(stratum, parent transition, parent cube, parent receipt, parent's source order, the parent's
control RNG, parent id) -> the control; raises :class:`ControlError`. The RNG is shared by all
kinds of one parent, in configured order, so a builder must draw from it deterministically."""

Relation = Callable[[Answer, Answer, Cube], bool | None]
"""(parent's answer, control's answer, gold forward cube) -> satisfied; ``None`` = nothing the
pair says can be checked."""

StructuralCheck = Callable[[Mapping[str, Any], Mapping[str, Any]], list[str]]
"""(stored parent record, stored control record) -> problems, for ``reasonbench audit``."""


def every_stratum(stratum: Stratum) -> bool:
    return True


def no_structural_check(parent: Mapping[str, Any], control: Mapping[str, Any]) -> list[str]:
    return []


def _cells_not_given(parent: Cube, control: Cube) -> tuple[bool, ...]:
    """The default of :attr:`ControlKind.cells`: :func:`identical_cells`, allowed only with the
    :func:`identical` relation (``ControlKind.__post_init__`` replaces it)."""
    return identical_cells(parent, control)


@dataclass(frozen=True)
class ControlKind:
    """One paired-control kind (docs/extending.md, "A new paired-control kind").

    * ``name``: the registered name (``controls.kinds`` of a benchmark config lists it; records
      carry it as ``control``); the registry refuses it under another name.
    * ``suffix``: a control's id is ``<parent id>-<suffix>`` (so no two kinds of one benchmark
      may share it).
    * ``label``: how tables and figures name the kind.
    * ``build``: a :data:`Builder`, the control of one locked parent, with *executed* gold;
      raises :class:`ControlError` naming the parent when it cannot build one.
    * ``relation``: a :data:`Relation`, what a (parent, control) pair of answers must satisfy:
      ``audit`` requires it of gold, ``analyze`` reports how often predictions satisfy it
      (:func:`~reasonbench.controls.relations.identical`: same endpoints and receipt).
    * ``audit``: a :data:`StructuralCheck` of the stored pair for ``reasonbench audit`` (e.g. the
      inverse swaps the parent's states); none by default.
    * ``applies``: which strata build the kind (others get no control of it); all by default.
    * ``description``: what the control is, in one line (for readers of the code; nothing
      prints it).
    * ``cells``: a :data:`~reasonbench.controls.relations.CellRelation`, the verdict each cell of
      the control's cube must have given the parent's cube: ``audit`` requires it of every gold
      pair, ``analyze`` reports it for cube predictions.
      :func:`~reasonbench.controls.relations.identical_cells` (every cell unchanged) is the
      default only for the :func:`identical` relation; a kind with any other ``relation`` must
      set it — :func:`~reasonbench.controls.relations.inverse_cells` when cell S of the control
      is cell (all − S) of the parent, or its own — and is refused without it (were it left to
      the default, ``generate`` would succeed and ``audit`` would find every gold pair whose
      cube is not the parent's violating "the cell relation").
    """

    name: str
    suffix: str  # control ids are "<parent id>-<suffix>"
    label: str  # how tables and figures name it
    build: Builder
    relation: Relation
    audit: StructuralCheck = no_structural_check
    applies: Callable[[Stratum], bool] = every_stratum  # strata that can build it
    description: str = ""
    # the cube-cell check: audit on gold, diagnostic on cubes; required unless relation=identical
    cells: CellRelation = _cells_not_given

    def __post_init__(self) -> None:
        if self.cells is not _cells_not_given:
            return
        if self.relation is not identical:
            raise ValueError(
                f"control kind {self.name!r} has relation "
                f"{getattr(self.relation, '__name__', repr(self.relation))} but no cells=: set "
                "ControlKind(cells=...) to how its control's cube relates to the parent's, which "
                "audit checks on every gold pair (inverse_cells: cell S is the parent's cell "
                "all-S; identical_cells: every cell unchanged; or your own)"
            )
        object.__setattr__(self, "cells", identical_cells)


CONTROL_KINDS: Registry[ControlKind] = Registry("control")
"""The paired-control kinds, in the paper's order (``controls/builtin.py`` registers four)."""
