"""Paired controls: the relations a locked example and its control must satisfy."""

from reasonbench.controls.relations import (
    CONTROLS,
    STRATUM_HOOKS,
    Said,
    applies,
    consistent,
    identical,
    inverse_consistent,
    inverse_cube,
    minimal_transversals,
    two_label_monotone,
)

__all__ = [
    "CONTROLS",
    "STRATUM_HOOKS",
    "Said",
    "applies",
    "consistent",
    "identical",
    "inverse_consistent",
    "inverse_cube",
    "minimal_transversals",
    "two_label_monotone",
]
