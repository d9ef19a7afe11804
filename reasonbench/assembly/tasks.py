"""Unit-level work items and the per-process stratum cache that runs them.

Work is split by independent unit: every item carries everything needed to regenerate its pool
(seed stream, rules, wants), so a worker process produces exactly what the parent would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reasonbench.assembly.sampling import ANY, Candidate, DrawRules, build_pool, replay
from reasonbench.strata.base import Stratum

_STRATA: dict[str, Stratum] = {}
_UNITS: dict[str, dict[str, Any]] = {}
# Pools drawn in this process, by (RNG stream, rules): phase 3 takes its candidates from here
# instead of replaying their draws (see shards.py for why the same process gets the unit).
_POOLS: dict[tuple[str, DrawRules], dict[int, Candidate]] = {}


def install_strata(strata: dict[str, Stratum], seed: int) -> dict[str, list[str]]:
    """Make strata (and their units by id) visible to the worker functions of this process;
    returns each stratum's unit ids in its own order (drawing 800 worlds again for the split
    assignment cost the build half a second of serial time)."""
    _STRATA.clear()
    _UNITS.clear()
    _POOLS.clear()
    for name, stratum in strata.items():
        _STRATA[name] = stratum
        _UNITS[name] = {unit.unit_id: unit for unit in stratum.units(seed)}
    return {name: list(units) for name, units in _UNITS.items()}


def installed_stratum(name: str) -> Stratum:
    """The stratum :func:`install_strata` made visible to this process."""
    return _STRATA[name]


@dataclass(frozen=True)
class UnitTask:
    split: str
    stratum: str
    unit_id: str
    cases: int
    rules: DrawRules
    stream: str  # RNG stream name; (stream, unit, draw) fully determines a draw
    wants: dict[str, int] = field(default_factory=dict)
    budget: int = 0
    draws: tuple[int, ...] | None = None  # phase 2 result: the pool draws to keep, in order

    @property
    def unit_stream(self) -> str:
        return f"{self.stream}:{self.unit_id}"


PoolSummary = list[tuple[int, str]]  # (draw, case class) of each pool candidate, in draw order


def pool_summary(task: UnitTask) -> PoolSummary:
    """Phase 1: draw the unit's pool; report only each candidate's draw and class."""
    unit = _UNITS[task.stratum][task.unit_id]
    pool = build_pool(
        _STRATA[task.stratum], unit, task.rules, task.unit_stream, task.wants, task.budget
    )
    _POOLS[task.unit_stream, task.rules] = {c.draw: c for c in pool}
    return [(c.draw, c.case_class) for c in pool]


def choose_draws(summary: PoolSummary, take: dict[str, int]) -> tuple[int, ...]:
    """Phase 2: the first ``take[c]`` candidates of each class (or ``take["any"]`` of any)."""
    if ANY in take:
        return tuple(draw for draw, _ in summary[: take[ANY]])
    remaining = dict(take)
    chosen = []
    for draw, case_class in summary:
        if remaining.get(case_class, 0) > 0:
            remaining[case_class] -= 1
            chosen.append(draw)
    return tuple(chosen)


def select(task: UnitTask) -> list[Candidate]:
    """Phase 3: the chosen draws' candidates, from this process's pool of the unit when it drew
    it, else replayed (identical either way: a draw is a pure function of its stream)."""
    if task.draws is None:
        raise ValueError(f"task for {task.unit_id} has no chosen draws")
    pool = _POOLS.pop((task.unit_stream, task.rules), None)
    if pool is not None:
        return [pool[draw] for draw in task.draws]
    unit = _UNITS[task.stratum][task.unit_id]
    return replay(_STRATA[task.stratum], unit, task.rules, task.unit_stream, list(task.draws))
