"""The cyclic garbage collector, paused for the length of a batch job (generate, audit).

A build keeps large bounded caches (decisions, closures, parsed components, pools) and
allocates millions of short-lived tuples and lists that reference counting frees at once. The
cyclic collector runs on allocation counts all the same, and each full pass walks every cached
object: in a single-process ``benchmark=extended`` build 52 s of 225 s went to 4,555
collections that found 8 thousand unreachable objects between them (docs/performance.md). So a
batch job pauses the collector and restores it when it ends; the workers it forks meanwhile
inherit the pause and exit with the job. Reference counting still frees everything that forms
no cycle, and the build's hot paths form none (a nested function that calls itself would be
one: ``tests/io/test_collector.py`` checks that drawing pools and writing records leave no
cyclic garbage), so memory is what it was with the collector on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_collector"]


@contextmanager
def paused_collector() -> Iterator[None]:
    """Pause the cyclic collector inside the block; re-enable it after, if it was on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
