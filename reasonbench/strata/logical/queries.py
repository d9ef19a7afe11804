"""Choosing a case's query among the world's queryable atoms, from their executed cubes.

A revision touches few atoms, so a uniform query would make almost every case a stable
``fails``. The query is therefore drawn after the revision, with weights over the *executed*
receipts of all candidates: the weights only shift how often each receipt shape is drawn (rare
shapes more often), never what a case's gold is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache, reduce
from operator import and_, or_
from typing import Any, NamedTuple

from reasonbench.core.adjudicator import REFER
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import FAILS, HOLDS, closure
from reasonbench.strata.logical.qbits import query_index
from reasonbench.strata.logical.sampler import World
from reasonbench.strata.logical.world import Atom

P_CHANGED = 0.6  # chance of drawing among changed candidates when both kinds exist
SIZE_WEIGHT = {1: 1.0, 2: 3.0, 3: 40.0}  # rarer receipt shapes are drawn more often
AMBIGUOUS_WEIGHT = 12.0
TRIVIAL_WEIGHT = 0.25  # stable queries at depth 0: a given fact, or nothing derives it

Key = tuple[int, int, int]
"""A query's shape in a case: (cells where it holds, cells where it is derivable, depth)."""

Want = Callable[[Receipt], bool]
"""A filter on the executed receipt of a candidate query (e.g. ``lambda r: r.ambiguous``)."""


class Candidate(NamedTuple):
    query: Atom
    receipt: Receipt
    depth: int  # proof depth of the case (see LogicalStratum.proof_depth)


@lru_cache(maxsize=4096)
def _receipt(holds: int, derivable: int) -> Receipt:
    """The receipt of a query from two bit masks over the 8 cells: where it holds (under
    authority) and where it is derivable at all."""
    verdicts = tuple(
        HOLDS if holds >> cell & 1 else REFER if derivable >> cell & 1 else FAILS
        for cell in range(8)
    )
    return receipt_of(Cube(GNA, verdicts))


DEAD = (0, 0, 0)  # the key of an atom no cell derives: fails everywhere, depth 0


def _cell_masks(masks: list[int], bit: int) -> int:
    """The cells (as a mask) whose closure mask has ``bit``."""
    out = 0
    for cell, mask in enumerate(masks):
        if mask & bit:
            out |= 1 << cell
    return out


def _keys(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> list[Key]:
    """Per queryable atom (in order): the cells where it holds, the cells where it is
    derivable, and the proof depth of the case; computed on closure bit masks (qbits.py)."""
    if old.sources != GNA or new.sources != GNA:
        raise ValueError(f"a logical state has the sources {GNA}, got {old.sources}")
    index = query_index(world)
    versions = tuple(zip(old.components, new.components, strict=True))
    # Cell ``mask`` takes source i from the new state iff bit i is set (as ``hybrid`` does).
    cells = [[pair[mask >> i & 1] for i, pair in enumerate(versions)] for mask in range(8)]
    full = [closure(g, n) for g, n, _ in cells]
    holds = [index.mask(closure(g, n, a)) for g, n, a in cells]
    derivable = [index.mask(c) for c in full]
    first, last = full[0].depth, full[7].depth
    holds_all, derivable_all = reduce(and_, holds), reduce(and_, derivable)
    holds_varies = reduce(or_, holds) & ~holds_all
    live = reduce(or_, derivable)
    derivable_varies = live & ~derivable_all
    out: list[Key] = []
    for i, query in enumerate(index.atoms):
        bit = 1 << i
        if not live & bit:
            out.append(DEAD)
            continue
        out.append(
            (
                _cell_masks(holds, bit) if holds_varies & bit else 0xFF if holds_all & bit else 0,
                _cell_masks(derivable, bit) if derivable_varies & bit else 0xFF,
                max(first.get(query, 0), last.get(query, 0)),
            )
        )
    return out


def candidates(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> list[Candidate]:
    """Every queryable atom with its executed receipt and proof depth (closures shared)."""
    return [
        Candidate(query, _receipt(holds, derivable), depth)
        for query, (holds, derivable, depth) in zip(
            world.queryable(), _keys(world, old, new), strict=True
        )
    ]


def _weight(receipt: Receipt, depth: int) -> float:
    if receipt.stable:
        return 1.0 + depth if depth else TRIVIAL_WEIGHT
    size = receipt.min_size or 1
    return SIZE_WEIGHT[size] * (AMBIGUOUS_WEIGHT if receipt.ambiguous else 1.0) * (1.0 + depth)


def choose_query(
    world: World,
    old: EvaluatorState[Any],
    new: EvaluatorState[Any],
    rng: random.Random,
    min_depth: int | None = None,
    max_depth: int | None = None,
    want: Want | None = None,
) -> Candidate | None:
    """A weighted draw among the :func:`candidates` within the depth bounds that ``want``
    accepts: among the changed ones (with chance ``P_CHANGED`` when there are stable ones too),
    else among the stable ones. One pass; each receipt shape is classified once."""
    queries: tuple[list[Atom], list[Atom]] = ([], [])  # changed, stable
    weights: tuple[list[float], list[float]] = ([], [])
    keys: tuple[list[Key], list[Key]] = ([], [])
    shapes: dict[Key, tuple[int, float] | None] = {}
    for query, key in zip(world.queryable(), _keys(world, old, new), strict=True):
        if key not in shapes:
            receipt = _receipt(key[0], key[1])
            accepted = (
                (min_depth is None or key[2] >= min_depth)
                and (max_depth is None or key[2] <= max_depth)
                and (want is None or want(receipt))
            )
            shapes[key] = (int(receipt.stable), _weight(receipt, key[2])) if accepted else None
        shape = shapes[key]
        if shape is not None:
            queries[shape[0]].append(query)
            weights[shape[0]].append(shape[1])
            keys[shape[0]].append(key)
    group = 0 if queries[0] and (not queries[1] or rng.random() < P_CHANGED) else 1
    if not queries[group]:
        return None
    index = rng.choices(range(len(queries[group])), weights=weights[group])[0]
    holds_in, derivable_in, depth = keys[group][index]
    return Candidate(queries[group][index], _receipt(holds_in, derivable_in), depth)
