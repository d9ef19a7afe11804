"""Closures as bit masks over a world's queryable atoms, for the sampler's set algebra.

Drawing a query compares the closures of the 8 cells atom by atom, and re-aiming compares the
closures before and after an edit. On atoms (tuples, whose hash is recomputed at every lookup)
that is most of a draw's cost; on one int per closure it is a handful of ``&``, ``|`` and ``^``.
Bit ``i`` stands for the ``i``-th queryable atom of the world, so bit order is the queryable
(sorted) order and iterating set bits lists atoms in that order. Each closure's mask is
computed once per world index and kept on the cached :class:`Closure` itself.
"""

from __future__ import annotations

from functools import lru_cache

from reasonbench.strata.logical.chaining import Closure
from reasonbench.strata.logical.sampler import World, queryable_atoms
from reasonbench.strata.logical.world import Atom


class QueryIndex:
    """A world's queryable atoms, in order, and the bit of each."""

    __slots__ = ("atoms", "bit", "full")

    def __init__(self, atoms: tuple[Atom, ...]) -> None:
        self.atoms = atoms
        self.bit = {atom: i for i, atom in enumerate(atoms)}
        self.full = (1 << len(atoms)) - 1

    def mask(self, result: Closure) -> int:
        """The queryable atoms ``result`` derives (cached on the closure)."""
        mask = result.views.get(self)
        if mask is None:
            mask = 0
            bit = self.bit
            for atom in result.depth:
                if atom in bit:
                    mask |= 1 << bit[atom]
            result.views[self] = mask
        return mask

    def members(self, mask: int) -> list[Atom]:
        """The atoms of ``mask``, in queryable order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.atoms[low.bit_length() - 1])
            mask ^= low
        return out


def query_index(world: World) -> QueryIndex:
    return _query_index(world.entities, world.properties, world.relation)


@lru_cache(maxsize=1024)
def _query_index(
    entities: tuple[str, ...], properties: tuple[str, ...], relation: str
) -> QueryIndex:
    return QueryIndex(queryable_atoms(entities, properties, relation))
