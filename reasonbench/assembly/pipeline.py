"""Build the benchmark: plan, pool, allocate, materialize (+ controls), check the quotas."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from reasonbench.assembly.allocate import CLASSES, QuotaError, class_counts
from reasonbench.assembly.materialize import CONTROL_SPLIT_NAME, materialize
from reasonbench.assembly.parallel import pmap
from reasonbench.assembly.plan import cardinality_tasks, main_tasks, unit_assignment
from reasonbench.assembly.sampling import ANY
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


def _materialize(
    task: UnitTask, order: tuple[str, ...], controls: tuple[str, ...], seed: int, prefix: str
) -> tuple[list[Record], list[Record]]:
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
    if (changed, ambiguous) != (spec.changed, spec.ambiguous):
        raise QuotaError(
            f"built {changed} changed / {ambiguous} ambiguous, quota {spec.changed} / {spec.ambiguous}"
        )
    sizes = {r["min_receipt_size"] for r in main if r["changed"]}
    missing = sorted(set(spec.min_sizes) - sizes)
    if missing:
        raise QuotaError(f"quotas.min_sizes: no case with minimum receipt size {missing}")


def build(
    spec: BenchmarkSpec, strata: dict[str, Stratum], workers: int = 1, progress: bool = True
) -> Built:
    install_strata(strata, spec.seed)
    assignment = unit_assignment(spec, strata)
    tasks, quotas = main_tasks(spec, strata, assignment)
    summaries = pmap(pool_summary, tasks, workers, "pools", progress)
    tasks = allocate_classes(tasks, summaries, quotas)
    order = spec.canonical_order
    results = []
    for split in SPLITS:  # one pass per split so the control flag is per batch
        batch = [t for t in tasks if t.split == split]
        controls = spec.control_kinds if split == spec.control_split else ()
        fn = partial(_materialize, order=order, controls=controls, seed=spec.seed, prefix="")
        results.extend(pmap(fn, batch, workers, f"records {split}", progress))
    splits: dict[str, list[Record]] = {s: [] for s in (*SPLITS, CONTROL_SPLIT_NAME)}
    for records, control_records in results:
        for record in records:
            splits[record["split"]].append(record)
        splits[CONTROL_SPLIT_NAME].extend(control_records)
    check_quotas(spec, splits)
    cardinality: dict[str, list[Record]] = {"cardinality_train": [], "cardinality_test": []}
    card_tasks = cardinality_tasks(spec, strata, assignment)
    card_pools = pmap(pool_summary, card_tasks, workers, "cardinality pools", progress)
    card_tasks = [
        replace(t, draws=choose_draws(p, {ANY: t.cases}))
        for t, p in zip(card_tasks, card_pools, strict=True)
    ]
    for part in cardinality:
        batch = [t for t in card_tasks if t.split == part]
        prefix = f"card-{part.removeprefix('cardinality_')}-"
        fn = partial(_materialize, order=order, controls=(), seed=spec.seed, prefix=prefix)
        for records, _ in pmap(fn, batch, workers, part, progress):
            cardinality[part].extend(records)
    return Built(splits, cardinality, assignment)
