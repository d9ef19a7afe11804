"""Closures as bit masks over a world's queryable atoms, for the sampler's set algebra.

Drawing a query compares the closures of the 8 cells atom by atom, and re-aiming compares the
closures before and after an edit. On atoms (tuples, whose hash is recomputed at every lookup)
that is most of a draw's cost; on one int per closure it is a handful of ``&``, ``|`` and ``^``.
Bit ``i`` stands for the ``i``-th queryable atom of the world, so bit order is the queryable
(sorted) order and iterating set bits lists atoms in that order. Each closure's mask is
computed once per world index and kept on the cached :class:`Closure` itself.
"""

from __future__ import annotations

from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import Closure, closure
from reasonbench.strata.logical.unit import World, parts, per_world
from reasonbench.strata.logical.world import Atom


class QueryIndex:
    """A world's queryable atoms, in order, and the bit of each."""

    __slots__ = ("atoms", "bit", "full", "set")

    def __init__(self, atoms: tuple[Atom, ...]) -> None:
        self.atoms = atoms
        self.bit = {atom: 1 << i for i, atom in enumerate(atoms)}
        self.full = (1 << len(atoms)) - 1
        self.set = frozenset(atoms)

    def mask(self, result: Closure) -> int:
        """The queryable atoms ``result`` derives (computed once per closure, kept on it)."""
        mask: int | None = result.views.get(self)
        if mask is None:
            # Distinct powers of two: their sum is their union (and ``sum`` runs in C).
            mask = result.views[self] = sum(map(self.bit.__getitem__, result.atoms & self.set))
        return mask

    def levels(self, result: Closure) -> tuple[int, ...]:
        """``levels[d]``: the queryable atoms ``result`` derives at depth d (cached likewise)."""
        key = (self, "levels")
        levels: tuple[int, ...] | None = result.views.get(key)
        if levels is None:
            out = [0] * (max(result.depth.values(), default=0) + 1)
            depth, bit = result.depth, self.bit
            for atom in result.atoms & self.set:
                out[depth[atom]] |= bit[atom]
            levels = result.views[key] = tuple(out)
        return levels

    def moved(self, before: EvaluatorState[Any], after: EvaluatorState[Any]) -> int:
        """The queryable atoms whose verdict differs between two states. A verdict is fixed by
        (derivable under authority, derivable at all), so those two masks are compared."""
        (g0, n0, a0), (g1, n1, a1) = parts(before), parts(after)
        diff = self.mask(closure(g0, n0, a0)) ^ self.mask(closure(g1, n1, a1))
        return diff | self.mask(closure(g0, n0)) ^ self.mask(closure(g1, n1))

    def members(self, mask: int) -> list[Atom]:
        """The atoms of ``mask``, in queryable order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.atoms[low.bit_length() - 1])
            mask ^= low
        return out


def query_index(world: World) -> QueryIndex:
    return per_world(world, "query index", lambda w: QueryIndex(w.queryable()))
