"""Executing one hybrid ``repeats`` times through a plug-in, through the cache.

The executor is shared by the worker threads: identical hybrids (two cases sharing a state, or a
source whose old and new values are equal) are executed once, the second thread waits for the
first. Every failed execution is kept as a :class:`Failure` with its run number; a replayable one
(an unreadable answer) is cached like a verdict, a transient one is not. An
:class:`~reasonbench.certify.plugins.AdjudicatorUnavailable` is not a failure of the hybrid: it
propagates and stops the run.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.certify.cache import ExecutionCache, hybrid_key
from reasonbench.certify.plugins import (
    AdjudicatorFailure,
    AdjudicatorUnavailable,
    HybridAdjudicator,
    execute_run,
)

__all__ = ["CellRuns", "Executor", "Failure"]


@dataclass(frozen=True)
class Failure:
    run: int
    kind: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run, "kind": self.kind, "detail": self.detail}


@dataclass(frozen=True)
class CellRuns:
    """The verdicts of one hybrid's runs (in run order), or why some runs failed."""

    verdicts: tuple[str, ...]
    failures: tuple[Failure, ...] = ()

    @property
    def stable(self) -> bool:
        return len(set(self.verdicts)) <= 1


class Executor:
    def __init__(
        self,
        adjudicator: HybridAdjudicator,
        adjudicator_id: str,
        labels: tuple[str, ...],
        cache: ExecutionCache,
        repeats: int = 1,
    ) -> None:
        self.adjudicator = adjudicator
        self.adjudicator_id = adjudicator_id
        self.labels = frozenset(labels)
        self.cache = cache
        self.repeats = repeats
        self.executed = 0  # executions run in this process (cache misses), failed ones included
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}

    def _key_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._key_locks.setdefault(key, threading.Lock())

    def _execute(self, hybrid: Mapping[str, Any], run: int) -> str:
        with self._lock:
            self.executed += 1
        try:
            label = execute_run(self.adjudicator, hybrid, run)
        except (AdjudicatorFailure, AdjudicatorUnavailable):
            raise
        except Exception as exc:  # a third-party plug-in's own error is a crash of that hybrid
            raise AdjudicatorFailure("crash", f"{type(exc).__name__}: {exc}") from None
        return self._check(label)

    def _check(self, label: str) -> str:
        if label not in self.labels:
            raise AdjudicatorFailure(
                "label",
                f"verdict {label!r} is not one of the declared labels {sorted(self.labels)}",
            )
        return label

    def run(self, hybrid: Mapping[str, Any]) -> CellRuns:
        key = hybrid_key(self.adjudicator_id, hybrid)
        verdicts: list[str] = []
        failures: list[Failure] = []
        with self._key_lock(key):
            for run in range(self.repeats):
                cached = self.cache.get(key, run)
                if isinstance(cached, tuple):  # a replayable failure: the answer is on record
                    failures.append(Failure(run, *cached))
                    continue
                try:
                    verdict = (
                        self._check(cached) if cached is not None else self._execute(hybrid, run)
                    )
                except AdjudicatorFailure as failure:
                    failures.append(Failure(run, failure.kind, failure.detail))
                    if failure.replayable and cached is None:
                        self.cache.put(key, run, (failure.kind, failure.detail))
                    continue
                if cached is None:
                    self.cache.put(key, run, verdict)
                verdicts.append(verdict)
        return CellRuns(tuple(verdicts), tuple(failures))
