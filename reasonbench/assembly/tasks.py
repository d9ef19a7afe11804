"""Unit-level work items and the per-process stratum cache that runs them.

Work is split by independent unit: every item carries everything needed to regenerate its pool
(seed stream, rules, wants), so a worker process produces exactly what the parent would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from reasonbench.assembly.sampling import ANY, Candidate, DrawRules, build_pool
from reasonbench.strata.base import Stratum

_STRATA: dict[str, Stratum] = {}
_UNITS: dict[str, dict[str, Any]] = {}


def install_strata(strata: dict[str, Stratum], seed: int) -> None:
    """Make strata (and their units by id) visible to the worker functions of this process."""
    _STRATA.clear()
    _UNITS.clear()
    for name, stratum in strata.items():
        _STRATA[name] = stratum
        _UNITS[name] = {unit.unit_id: unit for unit in stratum.units(seed)}


def stratum(name: str) -> Stratum:
    return _STRATA[name]


@dataclass(frozen=True)
class UnitTask:
    split: str
    stratum: str
    unit_id: str
    cases: int
    rules: DrawRules
    stream: str  # RNG stream name; (stream, unit) fully determines the pool
    wants: dict[str, int] = field(default_factory=dict)
    budget: int = 0
    take: dict[str, int] | None = None  # phase 2 result: how many of each class to keep

    def rng(self) -> random.Random:
        return random.Random(f"{self.stream}:{self.unit_id}")


def pool_for(task: UnitTask) -> list[Candidate]:
    unit = _UNITS[task.stratum][task.unit_id]
    return build_pool(_STRATA[task.stratum], unit, task.rules, task.rng(), task.wants, task.budget)


def pool_summary(task: UnitTask) -> dict[str, int]:
    """Phase 1: how many candidates of each class this unit's pool holds."""
    counts = {"ambiguous": 0, "changed": 0, "stable": 0}
    for candidate in pool_for(task):
        counts[candidate.case_class] += 1
    return counts


def select(task: UnitTask) -> list[Candidate]:
    """Phase 3: regenerate the pool and keep the first ``take[c]`` candidates of each class,
    in draw order."""
    if task.take is None:
        raise ValueError(f"task for {task.unit_id} has no class allocation")
    if ANY in task.take:
        return pool_for(task)[: task.take[ANY]]
    remaining = dict(task.take)
    chosen = []
    for candidate in pool_for(task):
        if remaining.get(candidate.case_class, 0) > 0:
            remaining[candidate.case_class] -= 1
            chosen.append(candidate)
    return chosen
