"""Build the benchmark: plan, pool, allocate, materialize (+ controls), check the quotas."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from reasonbench.assembly.allocate import CLASSES, QuotaError, class_counts
from reasonbench.assembly.materialize import CONTROL_SPLIT_NAME, materialize
from reasonbench.assembly.plan import cardinality_tasks, main_tasks, unit_assignment
from reasonbench.assembly.sampling import ANY
from reasonbench.assembly.shards import Shards
from reasonbench.assembly.spec import SPLITS, BenchmarkSpec
from reasonbench.assembly.tasks import (
    PoolSummary,
    UnitTask,
    choose_draws,
    install_strata,
    pool_summary,
)
from reasonbench.strata.base import Stratum

Record = dict[str, Any]


@dataclass
class Built:
    splits: dict[str, list[Record]]  # main splits + controls_locked
    cardinality: dict[str, list[Record]]
    assignment: dict[str, dict[str, list[str]]]


CARDINALITY_PARTS = ("cardinality_train", "cardinality_test")


def _materialize(
    job: tuple[UnitTask, tuple[str, ...], str], order: tuple[str, ...], seed: int
) -> tuple[list[Record], list[Record]]:
    task, controls, prefix = job
    return materialize(task, prefix, order, controls, seed)


def allocate_classes(
    tasks: list[UnitTask],
    summaries: list[PoolSummary],
    quotas: dict[tuple[str, str], dict[str, int]],
) -> list[UnitTask]:
    """Phase 2: per (split, stratum), exact class counts per unit within each unit's pool."""
    out = list(tasks)
    for (split, name), quota in quotas.items():
        idx = [i for i, t in enumerate(tasks) if t.split == split and t.stratum == name]
        available = [{c: sum(k == c for _, k in summaries[i]) for c in CLASSES} for i in idx]
        takes = class_counts([tasks[i].cases for i in idx], available, quota, f"{split}/{name}")
        for i, take in zip(idx, takes, strict=True):
            out[i] = replace(tasks[i], draws=choose_draws(summaries[i], take))
    return out


def check_quotas(spec: BenchmarkSpec, splits: dict[str, list[Record]]) -> None:
    main = [r for s in SPLITS for r in splits[s]]
    counts = Counter(r["split"] for r in main)
    for split in SPLITS:
        want = sum(a.cases for a in spec.splits[split].values())
        if counts[split] != want:
            raise QuotaError(f"{split}: built {counts[split]} cases, quota {want}")
    changed = sum(r["changed"] for r in main)
    ambiguous = sum(r["ambiguous"] for r in main)
    quotas = spec.quotas
    if (changed, ambiguous) != (quotas.changed, quotas.ambiguous):
        raise QuotaError(
            f"built {changed} changed / {ambiguous} ambiguous, quota {quotas.changed} / {quotas.ambiguous}"
        )
    sizes = {r["min_receipt_size"] for r in main if r["changed"]}
    missing = sorted(set(quotas.min_sizes) - sizes)
    if missing:
        raise QuotaError(f"quotas.min_sizes: no case with minimum receipt size {missing}")


def build(
    spec: BenchmarkSpec,
    strata: dict[str, Stratum],
    workers: int = 1,
    progress: bool = True,
    cardinality: bool = True,
) -> Built:
    assignment = unit_assignment(spec, install_strata(strata, spec.seed))
    tasks, quotas = main_tasks(spec, strata, assignment)
    card_tasks = cardinality_tasks(spec, strata, assignment) if cardinality else []
    order = spec.canonical_order
    with Shards(workers) as shards:
        # One pass draws every pool (main and cardinality), one pass writes every record; the
        # workers keep their units' pools in between (see shards.py).
        summaries = shards.map(pool_summary, [*tasks, *card_tasks], "pools", progress)
        tasks = allocate_classes(tasks, summaries[: len(tasks)], quotas)
        card_tasks = [
            replace(t, draws=choose_draws(p, {ANY: t.cases}))
            for t, p in zip(card_tasks, summaries[len(tasks) :], strict=True)
        ]
        jobs = [
            (t, spec.controls.kinds if t.split == spec.controls.split else (), "") for t in tasks
        ] + [(t, (), f"card-{t.split.removeprefix('cardinality_')}-") for t in card_tasks]
        fn = partial(_materialize, order=order, seed=spec.seed)
        results = shards.map(fn, jobs, "records", progress)
    splits: dict[str, list[Record]] = {s: [] for s in (*SPLITS, CONTROL_SPLIT_NAME)}
    card: dict[str, list[Record]] = {part: [] for part in CARDINALITY_PARTS} if cardinality else {}
    for records, control_records in results:
        for record in records:
            (splits if record["split"] in splits else card)[record["split"]].append(record)
        splits[CONTROL_SPLIT_NAME].extend(control_records)
    check_quotas(spec, splits)
    return Built(splits, card, assignment)
