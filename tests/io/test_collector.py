"""The paused collector (reasonbench/io/collector.py) and the promise that makes it safe: the
build's hot paths (drawing pools, writing records and controls) form no reference cycles, so
reference counting alone frees what they allocate."""

from __future__ import annotations

import gc
from dataclasses import replace

from reasonbench.assembly import spec_from_config
from reasonbench.assembly.materialize import materialize
from reasonbench.assembly.plan import main_tasks, unit_assignment
from reasonbench.assembly.sampling import ANY
from reasonbench.assembly.tasks import UnitTask, choose_draws, install_strata, pool_summary
from reasonbench.io import paused_collector
from reasonbench.strata.registry import load_strata
from tests.assembly.test_extended import _config


def test_the_collector_is_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with paused_collector():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_collector():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_the_collector_is_restored_when_the_job_fails() -> None:
    try:
        with paused_collector():
            raise KeyError("boom")
    except KeyError:
        pass
    assert gc.isenabled()


def test_pools_records_and_controls_of_every_real_stratum_leave_no_cyclic_garbage() -> None:
    spec = spec_from_config(_config("small_extended"))
    strata = load_strata(spec.strata)
    tasks, _ = main_tasks(spec, strata, unit_assignment(spec, install_strata(strata, spec.seed)))
    # two units per stratum, each drawing a short pool (a full agentic pool takes seconds)
    picked = [
        [replace(t, wants={ANY: 6}) for t in tasks if t.stratum == name][:2] for name in spec.strata
    ]

    def run(task: UnitTask) -> int:
        summary = pool_summary(task)
        chosen = replace(task, draws=choose_draws(summary, {ANY: len(summary)}))
        records, controls = materialize(
            chosen, "", spec.canonical_order, spec.controls.kinds, spec.seed
        )
        return len(records) + len(controls)

    for first, _ in picked:
        run(first)  # first calls may set up module state (lazy imports, registries) once
    gc.collect()
    with paused_collector():
        made = sum(run(second) for _, second in picked)
        unreachable = gc.collect()
    assert made > 0
    assert unreachable == 0, f"{unreachable} objects in reference cycles"
