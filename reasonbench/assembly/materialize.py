"""Phase 3: turn a unit's selected candidates into records, plus paired controls when locked."""

from __future__ import annotations

import random
from typing import Any

from reasonbench.assembly.records import make_record
from reasonbench.assembly.sampling import Candidate, Traces
from reasonbench.assembly.tasks import UnitTask, installed_stratum, select
from reasonbench.controls import CONTROL_KINDS, ControlError
from reasonbench.strata.base import Stratum, Transition

__all__ = ["CONTROL_SPLIT_NAME", "ControlError", "materialize"]

CONTROL_SPLIT_NAME = "controls_locked"


def _parent_traces(parent: Candidate, control: Transition) -> Traces | None:
    """The parent's traces, when the control keeps its states (a permutation) or swaps them (an
    inverse) under the same context; ``None`` for a control with states of its own."""
    if control.context != parent.transition.context:
        return None
    old, new = parent.transition.old, parent.transition.new
    if (control.old, control.new) == (old, new):
        return parent.traces
    if (control.old, control.new) == (new, old):
        return parent.traces[1], parent.traces[0]
    return None


def _control_records(
    strat: Stratum,
    parent: Candidate,
    parent_id: str,
    order: tuple[str, ...],
    kinds: tuple[str, ...],
    seed: int,
) -> list[dict[str, Any]]:
    out = []
    # one RNG per parent, shared by its kinds in configured order (the frozen bytes depend on it)
    rng = random.Random(f"{seed}:controls:{parent_id}")
    common: dict[str, Any] = {
        "split": CONTROL_SPLIT_NAME,
        "family": parent.family,
        "depth": parent.depth,
        "parent_id": parent_id,
    }
    for name in kinds:
        kind = CONTROL_KINDS.get(name)
        if not kind.applies(strat):
            continue
        built = kind.build(
            strat, parent.transition, parent.cube, parent.receipt, order, rng, parent_id
        )
        out.append(
            make_record(
                strat,
                built.transition,
                built.cube,
                built.receipt,
                record_id=f"{parent_id}-{kind.suffix}",
                control=name,
                order=built.order,
                traces=_parent_traces(parent, built.transition),
                **common,
            )
        )
    return out


def materialize(
    task: UnitTask,
    id_prefix: str,
    order: tuple[str, ...],
    controls: tuple[str, ...],
    seed: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Records for the unit's selected candidates, and their controls (if ``controls``)."""
    strat = installed_stratum(task.stratum)
    records: list[dict[str, Any]] = []
    control_records: list[dict[str, Any]] = []
    for n, cand in enumerate(select(task)):
        rid = f"{id_prefix}{task.unit_id}-{n:03d}"
        records.append(
            make_record(
                strat,
                cand.transition,
                cand.cube,
                cand.receipt,
                record_id=rid,
                split=task.split,
                family=cand.family,
                order=order,
                depth=cand.depth,
                traces=cand.traces,
            )
        )
        if controls:
            control_records.extend(_control_records(strat, cand, rid, order, controls, seed))
    return records, control_records
