"""Sharded workers: input order, per-worker state kept across calls, failures surfaced."""

from __future__ import annotations

import os
import time

import pytest

from reasonbench.assembly.shards import Shards

_SEEN: dict[int, int] = {}


def _remember(x: int) -> int:
    _SEEN[x] = os.getpid()
    return x * x


def _owner(x: int) -> int:
    # The pid that ran _remember(x) in this process; -1 if another process did.
    return _SEEN.get(x, -1)


def _boom(x: int) -> int:
    if x == 3:
        raise ValueError("three is not allowed")
    return x


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_in_input_order(workers: int) -> None:
    with Shards(workers) as shards:
        assert shards.map(_remember, list(range(20)), "t", progress=False) == [
            x * x for x in range(20)
        ]


def test_item_i_returns_to_the_same_worker() -> None:
    # Phase 3 of assembly relies on it: a worker finds the pools it drew in phase 1, whichever
    # worker the balancing first call gave each item to.
    with Shards(2) as shards:
        shards.map(_remember, list(range(10)), "t", progress=False)
        owners = shards.map(_owner, list(range(10)), "t", progress=False)
        again = shards.map(_owner, list(range(10)), "t", progress=False)
    assert all(pid > 0 for pid in owners)
    assert again == owners
    assert owners[0] != owners[1]  # both workers start at once


def _slow_first(x: int) -> int:
    if x == 0:
        time.sleep(1.0)
    return _remember(x)


def test_the_first_call_balances_uneven_items() -> None:
    # A fixed split would give the worker of the slow item half the items; a free worker takes
    # the next item instead, so the other worker runs (nearly) all the rest meanwhile.
    with Shards(2) as shards:
        shards.map(_slow_first, list(range(12)), "t", progress=False)
        owners = shards.map(_owner, list(range(12)), "t", progress=False)
    slow = owners[0]
    assert sum(pid == slow for pid in owners) < 6
    assert all(pid > 0 for pid in owners)


def test_a_worker_failure_is_raised_as_itself_with_its_traceback() -> None:
    with pytest.raises(ValueError, match="three is not allowed") as info, Shards(2) as shards:
        shards.map(_boom, list(range(6)), "t", progress=False)
    assert "_boom" in str(info.value.__cause__)  # the worker's traceback


def test_in_process_failure_propagates_unchanged() -> None:
    with pytest.raises(ValueError, match="three"), Shards(1) as shards:
        shards.map(_boom, list(range(6)), "t", progress=False)
