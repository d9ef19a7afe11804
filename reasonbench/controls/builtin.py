"""The four paired-control kinds (spec §3, plus the agentic quarantine control), registered in
the order assembly builds them. Each builder returns a control case whose gold is *executed*, and
checked against what execution semantics guarantee, never assumed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import permutations
from typing import Any

from reasonbench.controls.base import CONTROL_KINDS, BuiltControl, ControlError, ControlKind
from reasonbench.controls.relations import (
    identical,
    inverse_cells,
    inverse_consistent,
    inverse_cube,
)
from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.strata.base import Stratum, SupportsQuarantine, Transition

__all__ = ["DISTRACTOR", "INVERSE", "PERMUTATION", "QUARANTINE"]

DISTRACTOR_TRIES = 25


def _permuted_order(canonical: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    others = [p for p in permutations(canonical) if p != canonical]
    return others[rng.randrange(len(others))]


def _permutation(
    strat: Stratum, t: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...],
    rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    return BuiltControl(t, cube, receipt, _permuted_order(order, rng))


def _inverse(
    strat: Stratum, t: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...],
    rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    inverse = Transition(t.unit_id, t.new, t.old, ("inverse", *t.operators), t.context)
    executed = execute_cube(strat.adjudicator(t.context), inverse.old, inverse.new)
    if executed != inverse_cube(cube):  # execution semantics guarantee this
        raise ControlError(f"{parent_id}: inverse cube is not the complement re-indexing")
    return BuiltControl(inverse, executed, receipt_of(executed), order)


def _unchanged(
    strat: Stratum, candidate: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...]
) -> BuiltControl | None:
    """``candidate`` as a control if executing all 2^k cells gives the parent's cube (certified:
    nothing that decides any cell changed), else ``None``."""
    executed = execute_cube(strat.adjudicator(candidate.context), candidate.old, candidate.new)
    return BuiltControl(candidate, executed, receipt, order) if executed == cube else None


def _distractor(
    strat: Stratum, t: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...],
    rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    for _ in range(DISTRACTOR_TRIES):
        candidate = strat.add_distractor(t, rng)
        if candidate is not None:
            built = _unchanged(strat, candidate, cube, receipt, order)
            if built is not None:
                return built
    raise ControlError(f"{parent_id}: no certified distractor in {DISTRACTOR_TRIES} tries")


def _quarantine(
    strat: Stratum, t: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...],
    rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    if not isinstance(strat, SupportsQuarantine):
        raise ControlError(f"{parent_id}: stratum {strat.name} cannot build quarantine controls")
    controlled = strat.quarantine_control(t, rng)
    if controlled is None:
        raise ControlError(f"{parent_id}: no injection satisfies Q1-Q3 in every cell")
    # The quarantine theorem guarantees an unchanged cube; execution checks it.
    built = _unchanged(strat, controlled, cube, receipt, order)
    if built is None:
        raise ControlError(f"{parent_id}: quarantined injection changed the cube")
    return built


def _swaps_states(parent: Mapping[str, Any], control: Mapping[str, Any]) -> list[str]:
    if (control["old_state"], control["new_state"]) != (parent["new_state"], parent["old_state"]):
        return [f"{control['id']}: inverse does not swap the parent's states"]
    return []


def _reorders_only(parent: Mapping[str, Any], control: Mapping[str, Any]) -> list[str]:
    same = (control["old_state"], control["new_state"]) == (
        parent["old_state"],
        parent["new_state"],
    )
    if not same or control["source_order"] == parent["source_order"]:
        return [f"{control['id']}: permutation must keep the states and change the order"]
    return []


def _can_quarantine(stratum: Stratum) -> bool:
    return isinstance(stratum, SupportsQuarantine)


def _register(kind: ControlKind) -> ControlKind:
    registered: ControlKind = CONTROL_KINDS.register(kind.name, kind)
    return registered


INVERSE = _register(
    ControlKind(
        "inverse", "inv", "inverse", _inverse, inverse_consistent, _swaps_states,
        description="old and new swapped: endpoints swap, cells re-indexed by complement",
        cells=inverse_cells,
    )
)  # fmt: skip
PERMUTATION = _register(
    ControlKind(
        "permutation", "perm", "permutation", _permutation, identical, _reorders_only,
        description="the same states with the sources presented in another order",
    )
)  # fmt: skip
DISTRACTOR = _register(
    ControlKind(
        "distractor", "dis", "distractor", _distractor, identical,
        description="an irrelevant ground or norm added to both states, certified by execution",
    )
)  # fmt: skip
QUARANTINE = _register(
    ControlKind(
        "quarantine", "qua", "quarantine", _quarantine, identical,
        applies=_can_quarantine,
        description="untrusted text planted in both states' grounds, certified by Q1-Q3",
    )
)  # fmt: skip
