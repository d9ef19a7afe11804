"""The query draw: candidates carry their executed receipts, and the fast draw (bit masks, stable
queries handled per (verdict, depth)) picks exactly what a plain weighted draw over the
candidates picks."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from reasonbench.core import GNA, execute_cube, receipt_of
from reasonbench.strata.logical import LogicalStratum, World
from reasonbench.strata.logical.queries import (
    P_CHANGED,
    Candidate,
    Want,
    _weight,
    candidates,
    choose_query,
)

SUBSETS = [s for r in (1, 2, 3) for s in itertools.combinations(GNA, r)]
WANTS: list[Want | None] = [
    None,
    lambda r: r.ambiguous,
    lambda r: r.stable,
    lambda r: not r.stable,
    lambda r: r.old == "fails",
    lambda r: r.new == "refer",
    lambda r: r.stable and r.old == "holds",
]


def reference(
    pool: list[Candidate],
    rng: random.Random,
    min_depth: int | None,
    max_depth: int | None,
    want: Want | None,
) -> Candidate | None:
    """The draw spelled out: filter, split changed/stable, ``rng.choices`` by weight."""
    pool = [
        c
        for c in pool
        if (min_depth is None or c.depth >= min_depth)
        and (max_depth is None or c.depth <= max_depth)
        and (want is None or want(c.receipt))
    ]
    changed = [c for c in pool if not c.receipt.stable]
    stable = [c for c in pool if c.receipt.stable]
    group = changed if changed and (not stable or rng.random() < P_CHANGED) else stable
    if not group:
        return None
    return rng.choices(group, weights=[_weight(c.receipt, c.depth) for c in group])[0]


def test_candidates_carry_executed_receipts_and_depths(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("candidates")
    for world in worlds[:12]:
        case = stratum.sample_transition(world, rng, rng.choice(SUBSETS))
        assert case is not None
        pool = candidates(world, case.old, case.new)
        assert [c.query for c in pool] == list(world.queryable())
        for candidate in pool:
            context = {"query": list(candidate.query)}
            cube = execute_cube(stratum.adjudicator(context), case.old, case.new)
            assert candidate.receipt == receipt_of(cube)
            assert candidate.depth == stratum.proof_depth(replace(case, context=context))


def test_fast_draw_matches_the_plain_weighted_draw(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("draws")
    compared = 0
    for world in worlds[:40]:
        for _ in range(6):
            case = stratum.sample_transition(world, rng, rng.choice(SUBSETS))
            assert case is not None
            pool = candidates(world, case.old, case.new)
            for want in WANTS:
                low, high = rng.choice([None, 1, 3, 4]), rng.choice([None, 0, 2, 5])
                seed = rng.random()
                fast = choose_query(world, case.old, case.new, random.Random(seed), low, high, want)
                plain = reference(pool, random.Random(seed), low, high, want)
                assert (fast is None) == (plain is None)
                if fast is not None and plain is not None:
                    assert (fast.query, fast.depth) == (plain.query, plain.depth)
                    assert fast.receipt.family() == plain.receipt.family()
                    assert (fast.receipt.old, fast.receipt.new) == (
                        plain.receipt.old,
                        plain.receipt.new,
                    )
                compared += 1
    assert compared == 40 * 6 * len(WANTS)
