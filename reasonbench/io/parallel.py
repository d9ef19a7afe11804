"""Worker processes: an order-preserving parallel map, and workers that die with their parent.

Results come back in input order whatever the worker count, which (with per-unit RNG streams)
is what makes outputs byte-identical for ``workers=1`` and ``workers=N``. Workers are forked after
the strata are installed, so they inherit them instead of reloading clause files.

A worker must never outlive the command that started it (a killed ``reasonbench generate`` must
leave no orphans computing for nobody): on Linux each worker asks the kernel for SIGTERM when its
parent dies (``PR_SET_PDEATHSIG``) and checks that the parent is still the one that forked it;
elsewhere the pipe to a dead parent closes and the worker's next read ends it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from reasonbench.progress import Progress

__all__ = ["die_with_parent", "pmap"]

T = TypeVar("T")
R = TypeVar("R")
PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int) -> None:
    """Call first thing in a forked worker: it is terminated when ``parent_pid`` dies, and it
    leaves Ctrl-C to the parent. A terminal's Ctrl-C reaches the whole process group; the parent
    answers it (one line, exit 130: reasonbench/cli/interrupt.py) and its workers end with it,
    where a worker of its own would print a KeyboardInterrupt traceback per process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the closed pipe still ends the worker
            pass
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(1)


def pmap(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int,
    desc: str,
    progress: bool = True,
    unit: str = "items",
) -> list[R]:
    with Progress(len(items), desc, unit, progress) as bar:
        if workers <= 1 or len(items) < 2:
            out = []
            for item in items:
                out.append(fn(item))
                bar.update()
            return out
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            results = []
            for result in pool.imap(fn, items, chunksize=max(1, len(items) // (workers * 16))):
                results.append(result)
                bar.update()
            return results
