"""Choosing a case's query among the world's queryable atoms, from their executed cubes.

A revision touches few atoms, so a uniform query would make almost every case a stable
``fails``. The query is therefore drawn after the revision, with weights over the *executed*
receipts of all candidates: the weights only shift how often each receipt shape is drawn (rare
shapes more often), never what a case's gold is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from reasonbench.core.adjudicator import REFER
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import FAILS, HOLDS, Closure, closure
from reasonbench.strata.logical.qbits import QueryIndex, query_index
from reasonbench.strata.logical.unit import World, parts
from reasonbench.strata.logical.world import Atom

P_CHANGED = 0.6  # chance of drawing among changed candidates when both kinds exist
SIZE_WEIGHT = {1: 1.0, 2: 3.0, 3: 40.0}  # rarer receipt shapes are drawn more often
AMBIGUOUS_WEIGHT = 12.0
TRIVIAL_WEIGHT = 0.25  # stable queries at depth 0: a given fact, or nothing derives it

Key = tuple[int, int, int]
"""A query's shape in a case: (cells where it holds, cells where it is derivable, depth)."""

Want = Callable[[Receipt], bool]
"""A filter on the executed receipt of a candidate query (e.g. :func:`ambiguous`)."""


def ambiguous(receipt: Receipt) -> bool:
    """The ``want`` of a draw aimed at an ambiguous case (see :func:`first_edit_hopeless`)."""
    return receipt.ambiguous


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


class _Cells(NamedTuple):
    """The queryable atoms (as masks over ``index``) that hold, and that are derivable, in each
    of the 8 cells; and, per proof depth d, the atoms whose case depth is d."""

    atoms: QueryIndex
    holds: list[int]
    derivable: list[int]
    depth: list[int]

    def key(self, i: int) -> Key:
        """The shape of the ``i``-th queryable atom (per-atom work: only for the few needed)."""
        depth = next(d for d, level in enumerate(self.depth) if level >> i & 1)
        return _column(self.holds, i), _column(self.derivable, i), depth


def _column(masks: list[int], i: int) -> int:
    """The cells (as a mask) whose atom mask has bit ``i`` (unrolled: a hot path)."""
    m0, m1, m2, m3, m4, m5, m6, m7 = masks
    return (
        (m0 >> i & 1)
        | (m1 >> i & 1) << 1
        | (m2 >> i & 1) << 2
        | (m3 >> i & 1) << 3
        | (m4 >> i & 1) << 4
        | (m5 >> i & 1) << 5
        | (m6 >> i & 1) << 6
        | (m7 >> i & 1) << 7
    )


def _cells(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> _Cells:
    if old.sources != GNA or new.sources != GNA:
        raise ValueError(f"a logical state has the sources {GNA}, got {old.sources}")
    index = query_index(world)
    (g0, n0, a0), (g1, n1, a1) = old.components, new.components
    # Cell c takes source i from the new state iff bit i of c is set (as ``hybrid`` does); only
    # the changed sources tell cells apart, so each distinct cell is closed once.
    changed = (g0 is not g1) | (n0 is not n1) << 1 | (a0 is not a1) << 2
    full: dict[int, Closure] = {}
    under: dict[int, int] = {}
    for cell in range(8):
        if cell & changed == cell:
            g, n = g1 if cell & 1 else g0, n1 if cell & 2 else n0
            full[cell] = closure(g, n)
            under[cell] = index.mask(closure(g, n, a1 if cell & 4 else a0))
    holds = [under[cell & changed] for cell in range(8)]
    derivable = [index.mask(full[cell & changed]) for cell in range(8)]
    # The case depth is the larger of the old and new depths (0 where neither derives it).
    first, last = index.levels(full[0]), index.levels(full[changed])
    top = max(len(first), len(last))
    first, last = first + (0,) * (top - len(first)), last + (0,) * (top - len(last))
    depth, deeper = [0] * top, 0
    for d in range(top - 1, -1, -1):
        depth[d] = (first[d] | last[d]) & ~deeper
        deeper |= depth[d]
    depth[0] |= index.full & ~deeper
    return _Cells(index, holds, derivable, depth)


def candidates(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> list[Candidate]:
    """Every queryable atom with its executed receipt and proof depth (closures shared)."""
    cells = _cells(world, old, new)
    return [
        Candidate(query, _receipt(holds, derivable), depth)
        for query, (holds, derivable, depth) in zip(
            world.queryable(), map(cells.key, range(len(world.queryable()))), strict=True
        )
    ]


def _weight(receipt: Receipt, depth: int) -> float:
    if receipt.stable:
        return 1.0 + depth if depth else TRIVIAL_WEIGHT
    size = receipt.min_size or 1
    return SIZE_WEIGHT[size] * (AMBIGUOUS_WEIGHT if receipt.ambiguous else 1.0) * (1.0 + depth)


@lru_cache(maxsize=4096)
def _weight_of(key: Key) -> float:
    return _weight(_receipt(key[0], key[1]), key[2])


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
    else among the stable ones (``rng.choices`` over them in queryable order, both ways).

    Changed candidates are few and taken one by one. Stable ones are most of the atoms, and
    their receipt depends only on their verdict and their weight only on their depth, so they
    are handled as masks per (verdict, depth): the draw finds the atom whose cumulative weight
    passes ``rng.random() * total`` by bisecting on prefix masks."""
    cells = _cells(world, old, new)
    holds, derivable = cells.holds, cells.derivable
    moved = (holds[0] ^ holds[7]) | (derivable[0] ^ derivable[7])
    bounded = min_depth is not None or max_depth is not None
    changed: list[int] = []
    weights: list[float] = []
    for i in _bits(moved):
        key = cells.key(i)
        if bounded and not _within(key[2], min_depth, max_depth):
            continue
        if want is None or want(_receipt(key[0], key[1])):
            changed.append(i)
            weights.append(_weight_of(key))
    # Stable atoms, by weight (of their depth); a stable receipt is fixed by the verdict alone.
    stable: dict[float, int] = {}
    rest = cells.atoms.full & ~moved
    verdicts = ((holds[0], 0xFF, 0xFF), (derivable[0] & ~holds[0], 0, 0xFF), (~derivable[0], 0, 0))
    for atoms, holds_in, derivable_in in verdicts:
        group = rest & atoms
        if group and (want is None or want(_receipt(holds_in, derivable_in))):
            for depth, level in enumerate(cells.depth):
                if group & level and (not bounded or _within(depth, min_depth, max_depth)):
                    weight = 1.0 + depth if depth else TRIVIAL_WEIGHT
                    stable[weight] = stable.get(weight, 0) | group & level
    if changed and (not stable or rng.random() < P_CHANGED):
        chosen = changed[rng.choices(range(len(changed)), weights=weights)[0]]
    elif stable:
        chosen = _draw(list(stable.items()), rng)
    else:
        return None
    holds_in, derivable_in, depth = cells.key(chosen)
    return Candidate(world.queryable()[chosen], _receipt(holds_in, derivable_in), depth)


def first_edit_hopeless(
    world: World, old: EvaluatorState[Any], first: EvaluatorState[Any], max_depth: int | None
) -> bool:
    """For a two-source revision wanting an ambiguous receipt, after its first edit: whether no
    query can qualify, whatever the second edit does (the draw may stop there).

    With two changed sources the receipt is ambiguous iff each source alone reproduces the new
    verdict, so the cell of the first source alone (``first``: the state after the first edit,
    as the composition runs in G, N, A order) must already move the query's verdict. A query
    whose old depth exceeds ``max_depth`` is out of bounds whatever the new state (the case
    depth is the larger of the two). So: no such atom moved means no qualifying query."""
    index = query_index(world)
    moved = index.moved(old, first)
    if max_depth is not None:
        facts, rules, _ = parts(old)
        for level in index.levels(closure(facts, rules))[max_depth + 1 :]:
            moved &= ~level
    return not moved


def _within(depth: int, min_depth: int | None, max_depth: int | None) -> bool:
    return (min_depth is None or depth >= min_depth) and (max_depth is None or depth <= max_depth)


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _draw(groups: list[tuple[float, int]], rng: random.Random) -> int:
    """``rng.choices`` over the atoms of ``groups`` in bit order, each weighted by its group's
    weight: the atom whose cumulative weight first exceeds ``rng.random() * total``. Weights are
    multiples of 1/4, so prefix sums are exact whatever the order they are added in."""
    total = 0.0
    members = 0
    for weight, atoms in groups:
        total += atoms.bit_count() * weight
        members |= atoms
    point = rng.random() * total
    low, high = 0, members.bit_length() - 1
    while low < high:  # the lowest bit whose inclusive prefix exceeds ``point``
        middle = (low + high) // 2
        below, prefix = (1 << middle + 1) - 1, 0.0
        for weight, atoms in groups:
            prefix += (atoms & below).bit_count() * weight
        if prefix > point:
            high = middle
        else:
            low = middle + 1
    return low
