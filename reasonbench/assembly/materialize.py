"""Phase 3: turn a unit's selected candidates into records, plus paired controls when locked."""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from reasonbench.assembly.records import make_record
from reasonbench.assembly.sampling import Candidate
from reasonbench.assembly.tasks import UnitTask, select, stratum
from reasonbench.controls.relations import applies, inverse_cube
from reasonbench.core.cube import execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.strata.base import Stratum, Transition

CONTROL_SPLIT_NAME = "controls_locked"
SUFFIX = {"inverse": "inv", "permutation": "perm", "distractor": "dis", "quarantine": "qua"}
DISTRACTOR_TRIES = 25


class ControlError(RuntimeError):
    """A control that could not be built or certified; names the parent example."""


def _permuted_order(canonical: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    others = [p for p in permutations(canonical) if p != canonical]
    return others[rng.randrange(len(others))]


def _control_records(
    strat: Stratum,
    parent: Candidate,
    parent_id: str,
    order: tuple[str, ...],
    kinds: tuple[str, ...],
    seed: int,
) -> list[dict[str, Any]]:
    out = []
    rng = random.Random(f"{seed}:controls:{parent_id}")
    common: dict[str, Any] = {
        "split": CONTROL_SPLIT_NAME,
        "family": parent.family,
        "depth": parent.depth,
        "parent_id": parent_id,
    }
    t = parent.transition
    for kind in kinds:
        if not applies(kind, strat):
            continue
        rid = f"{parent_id}-{SUFFIX[kind]}"
        if kind == "permutation":
            out.append(
                make_record(
                    strat,
                    t,
                    parent.cube,
                    parent.receipt,
                    record_id=rid,
                    control=kind,
                    order=_permuted_order(order, rng),
                    **common,
                )
            )
        elif kind == "inverse":
            inverse = Transition(t.unit_id, t.new, t.old, ("inverse", *t.operators), t.context)
            cube = execute_cube(strat.adjudicator(t.context), inverse.old, inverse.new)
            if cube != inverse_cube(parent.cube):  # execution semantics guarantee this
                raise ControlError(f"{parent_id}: inverse cube is not the complement re-indexing")
            out.append(
                make_record(
                    strat,
                    inverse,
                    cube,
                    receipt_of(cube),
                    record_id=rid,
                    control=kind,
                    order=order,
                    **common,
                )
            )
        elif kind == "distractor":
            out.append(_distractor(strat, parent, rid, order, rng, common))
        elif kind == "quarantine":
            out.append(_quarantined(strat, parent, rid, order, rng, common))
    return out


def _unchanged(
    strat: Stratum,
    parent: Candidate,
    candidate: Transition,
    kind: str,
    rid: str,
    order: tuple[str, ...],
    common: dict[str, Any],
) -> dict[str, Any] | None:
    """The control record of ``candidate`` if executing all 2^k cells gives the parent's cube
    (certified: nothing that decides any cell changed), else ``None``."""
    cube = execute_cube(strat.adjudicator(candidate.context), candidate.old, candidate.new)
    if cube != parent.cube:
        return None
    return make_record(
        strat, candidate, cube, parent.receipt, record_id=rid, control=kind, order=order, **common
    )


def _quarantined(
    strat: Stratum,
    parent: Candidate,
    rid: str,
    order: tuple[str, ...],
    rng: random.Random,
    common: dict[str, Any],
) -> dict[str, Any]:
    controlled = strat.quarantine_control(parent.transition, rng)  # type: ignore[attr-defined]
    if controlled is None:
        raise ControlError(f"{common['parent_id']}: no injection satisfies Q1-Q3 in every cell")
    # The quarantine theorem guarantees an unchanged cube; execution checks it.
    record = _unchanged(strat, parent, controlled, "quarantine", rid, order, common)
    if record is None:
        raise ControlError(f"{common['parent_id']}: quarantined injection changed the cube")
    return record


def _distractor(
    strat: Stratum,
    parent: Candidate,
    rid: str,
    order: tuple[str, ...],
    rng: random.Random,
    common: dict[str, Any],
) -> dict[str, Any]:
    for _ in range(DISTRACTOR_TRIES):
        candidate = strat.add_distractor(parent.transition, rng)
        if candidate is not None:
            record = _unchanged(strat, parent, candidate, "distractor", rid, order, common)
            if record is not None:
                return record
    raise ControlError(
        f"{common['parent_id']}: no certified distractor in {DISTRACTOR_TRIES} tries"
    )


def materialize(
    task: UnitTask,
    id_prefix: str,
    order: tuple[str, ...],
    controls: tuple[str, ...],
    seed: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Records for the unit's selected candidates, and their controls (if ``controls``)."""
    strat = stratum(task.stratum)
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
            )
        )
        if controls:
            control_records.extend(_control_records(strat, cand, rid, order, controls, seed))
    return records, control_records
