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

from reasonbench.controls.relations import CellRelation, identical_cells
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


@dataclass(frozen=True)
class ControlKind:
    name: str
    suffix: str  # control ids are "<parent id>-<suffix>"
    label: str  # how tables and figures name it
    build: Builder
    relation: Relation
    audit: StructuralCheck = no_structural_check
    applies: Callable[[Stratum], bool] = every_stratum  # strata that can build it
    description: str = ""
    cells: CellRelation = identical_cells  # the cube-cell check: audit on gold, diagnostic on cubes


CONTROL_KINDS: Registry[ControlKind] = Registry("control")
"""The paired-control kinds, in the paper's order (``controls/builtin.py`` registers four)."""
