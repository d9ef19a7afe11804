"""Forked workers that each own a share of the unit tasks, across several phases.

``pmap`` hands items to whichever worker is free, so a later phase cannot find what an earlier
one computed. Assembly draws every unit's pool in phase 1 and, after the global allocation,
needs a few of the same candidates again in phase 3. Here the first call hands item ``i`` to
whichever worker is free (unit pools differ in cost by two orders of magnitude, so a fixed
split left one worker idle for most of a minute), and every later call sends item ``i`` back
to the worker that ran item ``i`` of the first call. A worker lives for the whole build, so it
keeps its units' pools in memory (``tasks._POOLS``) instead of replaying their draws. Results
come back in input order, so outputs are byte-identical for any worker count and schedule.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from reasonbench.io.parallel import die_with_parent
from reasonbench.progress import Progress

T = TypeVar("T")
R = TypeVar("R")

_DONE = "done"
_FAILED = "failed"


def _serve(conn: Connection, parent_pid: int) -> None:
    """A worker's loop: run each batch ``(fn, [(index, item), ...])`` it is sent, replying
    ``(index, result)`` per item, then ``_DONE``; stop on ``None`` — or when the parent dies
    (a killed ``reasonbench generate`` leaves no worker behind)."""
    die_with_parent(parent_pid)
    while True:
        try:
            message = conn.recv()
        except EOFError:  # the parent closed its end (or died): nothing more will come
            return
        if message is None:
            return
        fn, batch = message
        try:
            for index, item in batch:
                conn.send((index, fn(item)))
        except Exception as error:  # the parent re-raises it, with the worker's traceback
            text = traceback.format_exc()
            try:
                conn.send((_FAILED, (error, text)))
            except Exception:  # an exception that does not pickle: its traceback still does
                conn.send((_FAILED, (RuntimeError(text.strip().splitlines()[-1]), text)))
            continue
        conn.send((_DONE, None))


class Shards:
    """``workers`` forked processes (none for ``workers <= 1``: items then run in-process).

    Fork after the strata are installed: workers inherit them instead of reloading data files.
    Use as a context manager so the processes are always joined.
    """

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._owner: list[int] | None = None  # the worker of each item of the first call
        if self.workers > 1:
            context = multiprocessing.get_context("fork")
            for _ in range(self.workers):
                parent, child = context.Pipe()
                proc = context.Process(target=_serve, args=(child, os.getpid()), daemon=True)
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], desc: str, progress: bool = True
    ) -> list[R]:
        """``[fn(x) for x in items]``; the first call balances, later ones keep affinity."""
        bar = Progress(len(items), desc, "units", progress)
        try:
            if not self._conns:
                out = []
                for item in items:
                    out.append(fn(item))
                    bar.update()
                return out
            return self._scatter(fn, items, desc, bar)
        finally:
            bar.close()

    def _scatter(
        self, fn: Callable[[T], R], items: Sequence[T], desc: str, bar: Progress
    ) -> list[R]:
        queue: list[int] = []  # items for whichever worker is free, in input order
        batches: dict[int, list[int]] = {rank: [] for rank in range(self.workers)}
        owner = self._owner or []
        for i in range(len(items)):
            (batches[owner[i]] if i < len(owner) else queue).append(i)
        if self._owner is None:
            self._owner = [-1] * len(items)
        results: dict[int, R] = {}
        busy = set()
        for rank in range(self.workers):
            if self._send(rank, fn, items, batches[rank] or queue[:1]):
                busy.add(rank)
                if not batches[rank]:
                    del queue[:1]
        while busy:
            for ready in wait([self._conns[r] for r in sorted(busy)]):
                rank = next(r for r, conn in enumerate(self._conns) if conn is ready)
                try:
                    index, value = self._conns[rank].recv()
                except EOFError:
                    raise RuntimeError(f"{desc}: worker {rank} died") from None
                if index == _DONE:
                    busy.discard(rank)
                    if queue and self._send(rank, fn, items, queue[:1]):
                        del queue[:1]
                        busy.add(rank)
                elif index == _FAILED:
                    # The worker's own exception (QuotaError, ControlError, ...), so callers
                    # handle it as they would in-process; its traceback rides along as the cause.
                    error, text = value
                    raise error from RuntimeError(f"{desc}, worker {rank}:\n{text}")
                else:
                    results[index] = value
                    if index < len(self._owner) and self._owner[index] < 0:
                        self._owner[index] = rank
                    bar.update()
        return [results[i] for i in range(len(items))]

    def _send(
        self, rank: int, fn: Callable[[T], R], items: Sequence[T], indices: list[int]
    ) -> bool:
        """Send worker ``rank`` a batch (nothing when ``indices`` is empty)."""
        if indices:
            self._conns[rank].send((fn, [(i, items[i]) for i in indices]))
        return bool(indices)

    def close(self, abort: bool = False) -> None:
        """Stop the workers (at once with ``abort``: after a failure they may be mid-batch)."""
        for proc in self._procs if abort else ():
            proc.terminate()
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):  # already gone: nothing to stop
                conn.send(None)
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []

    def __enter__(self) -> Shards:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.close(abort=kind is not None)
