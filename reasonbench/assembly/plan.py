"""Phase 0: turn a ``BenchmarkSpec`` into unit tasks with exact quotas and split rules."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from reasonbench.assembly.allocate import (
    QuotaError,
    assign_units,
    even_split,
    largest_remainder,
)
from reasonbench.assembly.sampling import ANY, SUBSETS, DrawRules
from reasonbench.assembly.spec import SPLITS, BenchmarkSpec, SpecError
from reasonbench.assembly.tasks import UnitTask
from reasonbench.strata.base import Stratum

POOL_SLACK = 1.15  # pools aim 15% above a unit's proportional share of each class (+1)...
# ...except the ambiguous class: its cases cost ~20 rejected draws each (a focused draw rarely
# yields an ambiguous receipt), and the cheap classes' surplus never helps it, so its pools aim
# only 5% above their share (the allocator moves any shortfall to units with a surplus).
AMBIGUOUS_SLACK = 1.05
BUDGET_PER_CASE = 60  # draws allowed per requested case before a pool stops short


def split_rules(spec: BenchmarkSpec, name: str, strat: Stratum, split: str) -> DrawRules:
    """What a split allows for one stratum (operators, families, depth); validates names."""
    held_ops = spec.shifts.held_out_operators.get(name, ())
    for op in held_ops:
        if op not in strat.operators:
            raise SpecError(
                f"shifts.held_out_operators.{name}: unknown operator {op!r} "
                f"(registered: {sorted(strat.operators)})"
            )
    held_family = spec.shifts.held_out_family.get(name)
    if held_family is not None and held_family not in strat.template_families:
        raise SpecError(
            f"shifts.held_out_family.{name}: unknown template family {held_family!r} "
            f"(families: {list(strat.template_families)})"
        )
    families = tuple(f for f in strat.template_families if f != held_family)
    if held_family is not None and len(families) < 2:
        # one training wording would teach the wording, not the meaning
        raise SpecError(
            f"shifts.held_out_family.{name}: at least two template families must stay in "
            f"training (families: {list(strat.template_families)})"
        )
    in_dist_ops = tuple(sorted(op for op in strat.operators if op not in held_ops))
    rules = DrawRules(subsets=SUBSETS, operators=in_dist_ops, families=families)
    if split == "shift_operator":
        if not held_ops:
            raise SpecError(f"shift_operator needs shifts.held_out_operators.{name}")
        # Held-out operators for every source that has one (all operators for a source that has
        # none), so each draw meets the requirement instead of being rejected most of the time.
        covered = {strat.operators[op].source for op in held_ops}
        allowed = held_ops + tuple(
            sorted(op for op, o in strat.operators.items() if o.source not in covered)
        )
        rules = replace(rules, operators=allowed, require_operator=held_ops)
    if split == "shift_linguistic":
        if held_family is None:
            raise SpecError(f"shift_linguistic needs shifts.held_out_family.{name}")
        rules = replace(rules, families=(held_family,))
    if split == "shift_depth":
        return replace(rules, min_depth=spec.shifts.depth.min_depth)
    return replace(rules, max_depth=spec.shifts.depth.min_depth - 1)


def _want(case_class: str, share: float) -> int:
    """How many candidates of a class a unit's pool draws, for its proportional ``share``."""
    if case_class == "ambiguous":
        return math.ceil(AMBIGUOUS_SLACK * share)
    return math.ceil(POOL_SLACK * share) + 1


def unit_assignment(
    spec: BenchmarkSpec, unit_ids: Mapping[str, Sequence[str]]
) -> dict[str, dict[str, list[str]]]:
    """stratum -> split -> unit ids, from each stratum's unit ids in its own order
    (:func:`reasonbench.assembly.tasks.install_strata` returns them)."""
    out = {}
    for name in spec.strata:
        ids = list(unit_ids[name])
        counts = {split: spec.splits[split][name].units for split in SPLITS}
        out[name] = assign_units(ids, counts, spec.seed, name)
    return out


def main_tasks(
    spec: BenchmarkSpec, strata: dict[str, Stratum], assignment: dict[str, dict[str, list[str]]]
) -> tuple[list[UnitTask], dict[tuple[str, str], dict[str, int]]]:
    """One task per unit of the main splits, and the exact class quota of each (split, stratum)."""
    cells = [
        (split, name) for split in SPLITS for name in spec.strata if spec.splits[split][name].cases
    ]
    weights = [spec.splits[s][n].cases for s, n in cells]
    changed = largest_remainder(spec.quotas.changed, weights)
    # Ambiguity is apportioned by cases x the stratum's weight: strata differ in how cheaply they
    # yield ambiguous receipts (spec.quotas.ambiguity_weight, documented in docs/benchmark.md).
    ambiguous = largest_remainder(
        spec.quotas.ambiguous,
        [
            round(w * spec.quotas.ambiguity_weight[n] * 1000)
            for w, (_, n) in zip(weights, cells, strict=True)
        ],
    )
    quotas: dict[tuple[str, str], dict[str, int]] = {}
    tasks: list[UnitTask] = []
    for (split, name), cases, chg, amb in zip(cells, weights, changed, ambiguous, strict=True):
        if amb > chg:
            raise QuotaError(f"{split}/{name}: ambiguous share {amb} exceeds changed share {chg}")
        quota = {"ambiguous": amb, "changed": chg - amb, "stable": cases - chg}
        quotas[(split, name)] = quota
        rules = split_rules(spec, name, strata[name], split)
        units = assignment[name][split]
        for unit_id, n in zip(units, even_split(cases, len(units)), strict=True):
            wants = {c: _want(c, n * q / cases) if q else 0 for c, q in quota.items()}
            tasks.append(
                UnitTask(
                    split,
                    name,
                    unit_id,
                    n,
                    rules,
                    f"{spec.seed}:main:{split}",
                    wants,
                    BUDGET_PER_CASE * n + 200,
                )
            )
    return tasks, quotas


def cardinality_tasks(
    spec: BenchmarkSpec, strata: dict[str, Stratum], assignment: dict[str, dict[str, list[str]]]
) -> list[UnitTask]:
    """Post-freeze cardinality experiment: single-source training, multi-source test changes."""
    tasks = []
    for part, entry in spec.cardinality.items():
        source_split, total = entry.from_split, entry.cases
        units = [(n, u) for n in spec.strata for u in assignment[n][source_split]]
        for (name, unit_id), n in zip(units, even_split(total, len(units)), strict=True):
            rules = split_rules(spec, name, strata[name], source_split)
            if part == "train":
                rules = replace(rules, subsets=tuple(s for s in SUBSETS if len(s) == 1))
            else:
                rules = replace(
                    rules, subsets=tuple(s for s in SUBSETS if len(s) > 1), require_changed=True
                )
            tasks.append(
                UnitTask(
                    f"cardinality_{part}",
                    name,
                    unit_id,
                    n,
                    rules,
                    f"{spec.seed}:cardinality:{part}",
                    {ANY: n},
                    BUDGET_PER_CASE * n + 200,
                )
            )
    return tasks
