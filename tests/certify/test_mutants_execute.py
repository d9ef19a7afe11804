"""The :class:`~reasonbench.certify.execute.Executor` on its own: one run per hybrid unless told
otherwise, a third-party plug-in's own exception recorded as a ``crash`` with its type and
message (what the summary shows the user), and distinct hybrids executed concurrently — only
identical hybrids wait for each other."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.certify.cache import ExecutionCache
from reasonbench.certify.execute import CellRuns, Executor, Failure

LABELS = ("fail", "pass")


class Raising:
    """A third-party plug-in whose own code raises (not an AdjudicatorFailure)."""

    id = "test:raising"

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        raise ValueError(f"no rubric for {hybrid['x']}")


class Counting:
    """Counts its calls; always ``pass``."""

    id = "test:counting"

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        self.calls += 1
        return "pass"


class Rendezvous:
    """Each call waits (at most 5 s) for a call with another hybrid to be in flight at the same
    time: ``pass`` when they met, ``fail`` when the other never came."""

    id = "test:rendezvous"

    def __init__(self) -> None:
        self.barrier = threading.Barrier(2, timeout=5)

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            return "fail"
        return "pass"


def executor(plugin: Any, tmp_path: Path, **kwargs: Any) -> Executor:
    return Executor(plugin, plugin.id, LABELS, ExecutionCache(tmp_path / "cache.jsonl"), **kwargs)


def test_one_run_per_hybrid_by_default(tmp_path: Path) -> None:
    """``repeats`` defaults to 1: one verdict and one execution, not more."""
    plugin = Counting()
    ex = executor(plugin, tmp_path)
    assert ex.run({"x": 1}) == CellRuns(("pass",))
    assert plugin.calls == 1 and ex.executed == 1


def test_a_plugin_exception_is_a_crash_with_its_type_and_message(tmp_path: Path) -> None:
    """Any other exception of a plug-in is a ``crash`` of that hybrid (not of the run), its
    detail ``<ExceptionType>: <message>``; it is transient, so it is not cached."""
    ex = executor(Raising(), tmp_path, repeats=2)
    runs = ex.run({"x": "essay-7"})
    assert runs == CellRuns(
        (),
        (
            Failure(0, "crash", "ValueError: no rubric for essay-7"),
            Failure(1, "crash", "ValueError: no rubric for essay-7"),
        ),
    )
    assert runs.failures[0].to_json() == {
        "run": 0,
        "kind": "crash",
        "detail": "ValueError: no rubric for essay-7",
    }
    assert ex.executed == 2 and len(ex.cache) == 0


def test_distinct_hybrids_execute_concurrently(tmp_path: Path) -> None:
    """Only identical hybrids wait for each other: two threads with different hybrids are in
    the plug-in at the same time (each waits for the other), so both get ``pass``."""
    ex = executor(Rendezvous(), tmp_path)
    results: dict[int, CellRuns] = {}

    def work(x: int) -> None:
        results[x] = ex.run({"x": x})

    threads = [threading.Thread(target=work, args=(x,)) for x in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == {1: CellRuns(("pass",)), 2: CellRuns(("pass",))}
