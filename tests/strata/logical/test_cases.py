"""Sampled cases: a rich mix of cube outcomes, a broad proof-depth range, working filters."""

from __future__ import annotations

import collections
import itertools
import random

import pytest

from reasonbench.core import GNA, execute_cube, receipt_of
from reasonbench.strata.logical import LogicalStratum, World

SUBSETS = [s for r in (1, 2, 3) for s in itertools.combinations(GNA, r)]


@pytest.fixture(scope="module")
def mix(stratum: LogicalStratum, worlds: list[World]) -> collections.Counter[str]:
    """~300 draws per world on a handful of worlds, random source subsets, executed cubes."""
    rng = random.Random("diversity")
    seen: collections.Counter[str] = collections.Counter()
    for world in worlds[:6]:
        for _ in range(300):
            case = stratum.sample_transition(world, rng, rng.choice(SUBSETS))
            assert case is not None
            receipt = receipt_of(
                execute_cube(stratum.adjudicator(case.context), case.old, case.new)
            )
            seen["stable" if receipt.stable else f"size{receipt.min_size}"] += 1
            seen["ambiguous"] += receipt.ambiguous
            seen[f"{receipt.old}->{receipt.new}"] += 1
    return seen


def test_draws_reach_every_receipt_shape(mix: collections.Counter[str]) -> None:
    assert mix["stable"] >= 300 and mix["size1"] >= 300
    assert mix["size2"] >= 20
    assert mix["size3"] >= 2
    assert mix["ambiguous"] >= 20


def test_draws_reach_every_verdict_transition(mix: collections.Counter[str]) -> None:
    labels = ("holds", "fails", "refer")
    for old, new in itertools.product(labels, labels):
        assert mix[f"{old}->{new}"] >= 10, (old, new)


def test_proof_depth_spans_a_shift_worthy_range(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("depth")
    depths: collections.Counter[int] = collections.Counter()
    for world in worlds:
        case = stratum.sample_transition(world, rng, rng.choice(SUBSETS))
        assert case is not None
        depths[stratum.proof_depth(case)] += 1
    shallow = sum(depths[d] for d in (1, 2, 3))
    deep = sum(n for d, n in depths.items() if d >= 4)
    assert all(depths[d] > 0 for d in range(1, 7))
    assert shallow >= 300 and deep >= 80  # a train <= 3 / test >= 4 split has material


def test_depth_bounds_and_receipt_filter_are_honoured(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("filters")
    for world in worlds[:30]:
        case = stratum.sample_transition(world, rng, ("G", "N"), min_depth=4)
        if case is not None:
            assert stratum.proof_depth(case) >= 4
        case = stratum.sample_transition(world, rng, ("N",), max_depth=2)
        if case is not None:
            assert stratum.proof_depth(case) <= 2
        case = stratum.sample_transition(world, rng, GNA, want=lambda r: r.ambiguous)
        if case is not None:
            assert receipt_of(
                execute_cube(stratum.adjudicator(case.context), case.old, case.new)
            ).ambiguous


def test_cases_start_from_the_world_and_name_their_query(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("start")
    case = stratum.sample_transition(worlds[3], rng, ("A",))
    assert case is not None
    assert case.unit_id == "logic-0003" and case.old == worlds[3].state
    query = tuple(case.context["query"])
    assert query in worlds[3].queryable()
