"""Named sources and the fixed order of cube cells.

A *cell* is a subset S of the k declared sources, stored as a bitmask over source indices
(bit i set <=> source i is taken from the revised state). Bitmasks keep cube and receipt code
allocation-free, which matters when the generator executes ~200k cells per benchmark build.

Cell order (documented in docs/semantics.md and relied on by the ``cube`` target):
by size first, then lexicographically by the indices of the members. For (G, N, A) this is
``∅, G, N, A, GN, GA, NA, GNA``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

GNA: tuple[str, str, str] = ("G", "N", "A")
"""The paper's three sources: grounds, norms, authority."""

KEY_SEPARATOR = "+"


@lru_cache(maxsize=256)
def validate_sources(sources: tuple[str, ...]) -> None:
    """Raise ``ValueError`` naming the problem when ``sources`` is not a usable source list."""
    # Cached: every hybrid re-validates its (shared) source tuple, so hits must be O(1).
    if len(sources) == 0:
        raise ValueError("sources must name at least one source")
    for name in sources:
        if not isinstance(name, str) or not name:
            raise ValueError(f"source names must be non-empty strings, got {name!r}")
        if KEY_SEPARATOR in name:
            raise ValueError(f"source name {name!r} must not contain {KEY_SEPARATOR!r}")
    if len(set(sources)) != len(sources):
        raise ValueError(f"source names must be unique, got {list(sources)}")


@lru_cache(maxsize=64)
def cell_order(k: int) -> tuple[int, ...]:
    """All 2^k cell masks in the documented order (size, then member indices)."""
    if k < 1:
        raise ValueError("k must be >= 1")
    order: list[int] = []
    for size in range(k + 1):
        for members in combinations(range(k), size):
            order.append(sum(1 << i for i in members))
    return tuple(order)


def full_mask(k: int) -> int:
    return (1 << k) - 1


def popcount(mask: int) -> int:
    return bin(mask).count("1")


@lru_cache(maxsize=1024)  # a handful of (mask, sources) pairs, asked for on every cell key
def mask_members(mask: int, sources: tuple[str, ...]) -> tuple[str, ...]:
    """The source names in ``mask``, in ``sources`` order."""
    return tuple(name for i, name in enumerate(sources) if mask >> i & 1)


def mask_from_names(names: tuple[str, ...] | list[str], sources: tuple[str, ...]) -> int:
    """Bitmask of ``names``; ``ValueError`` on an unknown or repeated name."""
    index = {name: i for i, name in enumerate(sources)}
    mask = 0
    for name in names:
        if name not in index:
            raise ValueError(f"unknown source {name!r} (sources are {list(sources)})")
        bit = 1 << index[name]
        if mask & bit:
            raise ValueError(f"source {name!r} repeated in one cell")
        mask |= bit
    return mask


def cell_key(mask: int, sources: tuple[str, ...]) -> str:
    """The JSON key of a cell: member names joined by ``+`` in source order; ``""`` for ∅."""
    return KEY_SEPARATOR.join(mask_members(mask, sources))


def parse_cell_key(key: str, sources: tuple[str, ...]) -> int:
    """Inverse of :func:`cell_key`; member order in ``key`` is not significant."""
    if key == "":
        return 0
    return mask_from_names(key.split(KEY_SEPARATOR), sources)
