"""Choosing a case's query among the world's queryable atoms, from their executed cubes.

A revision touches few atoms, so a uniform query would make almost every case a stable
``fails``. The query is therefore drawn after the revision, with weights over the *executed*
receipts of all candidates: the weights only shift how often each receipt shape is drawn (rare
shapes more often), never what a case's gold is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reasonbench.core.adjudicator import REFER
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState, hybrid
from reasonbench.strata.logical.chaining import FAILS, HOLDS, closure
from reasonbench.strata.logical.sampler import World
from reasonbench.strata.logical.world import Atom

P_CHANGED = 0.6  # chance of drawing among changed candidates when both kinds exist
SIZE_WEIGHT = {1: 1.0, 2: 3.0, 3: 40.0}  # rarer receipt shapes are drawn more often
AMBIGUOUS_WEIGHT = 12.0
TRIVIAL_WEIGHT = 0.25  # stable queries at depth 0: a given fact, or nothing derives it

Want = Callable[[Receipt], bool]
"""A filter on the executed receipt of a candidate query (e.g. ``lambda r: r.ambiguous``)."""


@dataclass(frozen=True)
class Candidate:
    query: Atom
    receipt: Receipt
    depth: int  # proof depth of the case (see LogicalStratum.proof_depth)


def candidates(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> list[Candidate]:
    """Every queryable atom with its executed receipt and proof depth (closures shared)."""
    cells = [hybrid(old, new, mask) for mask in range(8)]
    under_authority = [closure(h["G"], h["N"], h["A"]).depth for h in cells]
    under_all = [closure(h["G"], h["N"]).depth for h in cells]
    reachable = set().union(*under_all)  # any other atom fails in every cell: stable, depth 0
    receipts: dict[tuple[str, ...], Receipt] = {}
    out = []
    for query in world.queryable():
        verdicts: tuple[str, ...] = (FAILS,) * 8
        if query in reachable:
            verdicts = tuple(
                HOLDS if query in auth else REFER if query in full else FAILS
                for auth, full in zip(under_authority, under_all, strict=True)
            )
        if verdicts not in receipts:
            receipts[verdicts] = receipt_of(Cube(GNA, verdicts))
        depth = max(under_all[0].get(query, 0), under_all[7].get(query, 0))
        out.append(Candidate(query, receipts[verdicts], depth))
    return out


def _weight(candidate: Candidate) -> float:
    receipt, depth = candidate.receipt, candidate.depth
    if receipt.stable:
        return 1.0 + depth if depth else TRIVIAL_WEIGHT
    size = receipt.min_size or 1
    return SIZE_WEIGHT[size] * (AMBIGUOUS_WEIGHT if receipt.ambiguous else 1.0) * (1.0 + depth)


def choose_query(
    pool: list[Candidate],
    rng: random.Random,
    min_depth: int | None = None,
    max_depth: int | None = None,
    want: Want | None = None,
) -> Candidate | None:
    """A weighted draw among the candidates within the depth bounds that ``want`` accepts."""
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
    return rng.choices(group, weights=[_weight(c) for c in group])[0]
