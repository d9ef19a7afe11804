"""Sampled cases: a rich mix of cube outcomes, a broad proof-depth range, working filters."""

from __future__ import annotations

import collections
import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, execute_cube, receipt_of
from reasonbench.strata.logical import LogicalStratum, World, cases
from reasonbench.strata.logical.queries import ambiguous, first_edit_hopeless

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


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    index=st.integers(0, 79),
    seed=st.integers(0, 10**6),
    sources=st.sampled_from([s for s in SUBSETS if len(s) == 2]),
    max_depth=st.sampled_from([None, 1, 3]),
)
def test_an_ambiguous_aim_stops_early_only_where_no_case_qualifies(
    stratum: LogicalStratum,
    worlds: list[World],
    index: int,
    seed: int,
    sources: tuple[str, ...],
    max_depth: int | None,
) -> None:
    """The early stop (``queries.first_edit_hopeless``) changes no draw's outcome: the same draw
    with an equal filter the stop does not recognise runs to the end and yields the same case."""
    world = worlds[index]
    kept = stratum.sample_transition(
        world, random.Random(seed), sources, max_depth=max_depth, want=ambiguous
    )
    full = stratum.sample_transition(
        world, random.Random(seed), sources, max_depth=max_depth, want=lambda r: r.ambiguous
    )
    assert kept == full


def test_the_early_stop_fires_on_pair_draws(stratum: LogicalStratum, worlds: list[World]) -> None:
    """Not vacuous: a fair share of ambiguous-aimed pair draws stop after their first edit."""
    rng = random.Random("hopeless")
    calls = []

    def hopeless(*args: Any, **kwargs: Any) -> bool:
        found = first_edit_hopeless(*args, **kwargs)
        calls.append(found)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cases, "first_edit_hopeless", hopeless)
        for world in worlds[:40]:
            stratum.sample_transition(world, rng, ("G", "N"), want=ambiguous)
    assert len(calls) >= 30 and 0 < sum(calls) < len(calls)
