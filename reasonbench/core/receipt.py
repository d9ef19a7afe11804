"""Judgment receipts: the complete family of inclusion-minimal sufficient source sets.

A set S is *sufficient* when the hybrid H(S) reproduces the revised verdict, V(S) = V(all).
When the endpoints agree the case is *stable* and has no receipt. Otherwise the full set is
always sufficient and the empty set never is, so a changed case has a non-empty receipt whose
sets are pairwise incomparable (an antichain; at most 3 sets when k = 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.core.cube import Cube
from reasonbench.core.sources import (
    GNA,
    cell_order,
    full_mask,
    mask_from_names,
    mask_members,
    popcount,
)


def canonical_family(masks: Iterable[int], k: int) -> tuple[int, ...]:
    """Sort a family of masks by (size, position in the cell order): the one printed order."""
    rank = {m: i for i, m in enumerate(cell_order(k))}
    return tuple(sorted(set(masks), key=rank.__getitem__))


def minimal_sufficient(cube: Cube) -> tuple[int, ...]:
    """Masks of the receipt of ``cube`` (empty tuple when stable), canonical order."""
    if not cube.changed:
        return ()
    target = cube.new
    found: list[int] = []
    # Walking cells by increasing size means every sufficient set met that contains no earlier
    # sufficient set is minimal: all its proper subsets were visited before it.
    for mask in cell_order(cube.k):
        if cube[mask] == target and not any(mask & m == m for m in found):
            found.append(mask)
    return tuple(found)


@dataclass(frozen=True)
class Receipt:
    """The receipt of one transition; ``sets`` are masks over ``sources``, canonical order."""

    sources: tuple[str, ...]
    old: str
    new: str
    sets: tuple[int, ...]

    @property
    def stable(self) -> bool:
        return self.old == self.new

    @property
    def min_size(self) -> int | None:
        """Size of the smallest receipt set; ``None`` for a stable case."""
        return min(popcount(m) for m in self.sets) if self.sets else None

    @property
    def ambiguous(self) -> bool:
        """Receipt-ambiguous: more than one minimal set."""
        return len(self.sets) > 1

    def family(self) -> list[list[str]]:
        """JSON form: list of sets, members in source order, sets in canonical order."""
        return [list(mask_members(m, self.sources)) for m in self.sets]

    def to_json(self) -> dict[str, Any]:
        return {
            "stable": self.stable,
            "old": self.old,
            "new": self.new,
            "receipt": self.family(),
            "min_size": self.min_size,
            "ambiguous": self.ambiguous,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], sources: tuple[str, ...] = GNA) -> Receipt:
        sets = family_masks(data["receipt"], sources)
        return cls(sources, str(data["old"]), str(data["new"]), sets)


def family_masks(
    family: Sequence[Sequence[str]], sources: tuple[str, ...] = GNA
) -> tuple[int, ...]:
    """Masks of a JSON receipt family, canonical order; ``ValueError`` on unknown sources."""
    return canonical_family((mask_from_names(list(s), sources) for s in family), len(sources))


def receipt_of(cube: Cube) -> Receipt:
    """The receipt of an executed (or predicted) cube."""
    return Receipt(cube.sources, cube.old, cube.new, minimal_sufficient(cube))


def is_antichain(masks: Iterable[int]) -> bool:
    items = list(masks)
    return all(a == b or (a & b) not in (a, b) for a in items for b in items)


def sufficient(cube: Cube, mask: int) -> bool:
    """Whether replacing the sources in ``mask`` reproduces the revised verdict."""
    return cube[mask] == cube[full_mask(cube.k)]
