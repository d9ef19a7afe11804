"""Order-preserving parallel map over unit tasks, with a progress bar.

Results come back in input order whatever the worker count, which (with per-unit RNG streams)
is what makes outputs byte-identical for ``workers=1`` and ``workers=N``. Workers are forked
after the strata are installed, so they inherit them instead of reloading clause files.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")
R = TypeVar("R")


def pmap(
    fn: Callable[[T], R], items: Sequence[T], workers: int, desc: str, progress: bool = True
) -> list[R]:
    bar = tqdm(total=len(items), desc=desc, unit="unit", disable=not progress, leave=False)
    try:
        if workers <= 1 or len(items) < 2:
            out = []
            for item in items:
                out.append(fn(item))
                bar.update()
            return out
        context = multiprocessing.get_context("fork")
        with context.Pool(workers) as pool:
            results = []
            for result in pool.imap(fn, items, chunksize=max(1, len(items) // (workers * 16))):
                results.append(result)
                bar.update()
            return results
    finally:
        bar.close()
