"""Paired controls: each kind is one registered :class:`ControlKind` (how it is built, the
relation a prediction pair must satisfy, the audit's structural check, the report label)."""

from reasonbench.controls import builtin  # noqa: F401  (registers the four control kinds)
from reasonbench.controls.base import (
    CONTROL_KINDS,
    BuiltControl,
    ControlError,
    ControlKind,
)
from reasonbench.controls.relations import (
    CellRelation,
    identical,
    identical_cells,
    inverse_cells,
    inverse_consistent,
    inverse_cube,
    minimal_transversals,
    two_label_monotone,
)

__all__ = [
    "CONTROL_KINDS",
    "BuiltControl",
    "CellRelation",
    "ControlError",
    "ControlKind",
    "identical",
    "identical_cells",
    "inverse_cells",
    "inverse_consistent",
    "inverse_cube",
    "minimal_transversals",
    "two_label_monotone",
]
