"""``assume=monotone``: the documented query policy (the cut, what an answer settles) against
brute force, and no cell is ever asked twice (found by mutation testing, docs/testing.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import Cube, cell_order, full_mask
from reasonbench.core.monotone import _Search
from tests.core.test_monotone import certify_counting, monotone_cubes


def brute_cut(unknown: set[int], k: int) -> int | None:
    """The documented cut: max over unknown cells of min(|unknown supersets|, |unknown
    subsets|), ties to the earliest cell in the cell order."""
    if not unknown:
        return None
    rank = {m: i for i, m in enumerate(cell_order(k))}

    def settles(m: int) -> int:
        supersets = sum(1 for v in unknown if v & m == m)
        subsets = sum(1 for v in unknown if v & m == v)
        return min(supersets, subsets)

    return min(unknown, key=lambda m: (-settles(m), rank[m]))


@settings(max_examples=150, deadline=None)
@given(monotone_cubes(max_k=6), st.data())
def test_cut_and_settle_follow_the_documented_policy(
    case: tuple[Cube, tuple[str, ...]], data: st.DataObject
) -> None:
    cube, _ = case
    k, top = cube.k, full_mask(cube.k)
    search = _Search(k)
    answered = data.draw(st.lists(st.integers(1, max(1, top - 1)), max_size=6))
    for mask in [0, top, *answered]:
        is_sufficient = cube[mask] == cube[top]
        if 0 < mask < top:
            search.settle(mask, is_sufficient)
    known_sufficient = {m for m in answered if cube[m] == cube[top]} | {top}
    known_insufficient = {m for m in answered if cube[m] != cube[top]} | {0}
    implied_sufficient = {m for m in range(top + 1) if any(m & s == s for s in known_sufficient)}
    implied_insufficient = {
        m for m in range(top + 1) if any(m & s == m for s in known_insufficient)
    }
    unknown = set(range(top + 1)) - implied_sufficient - implied_insufficient
    assert {m for m in range(top + 1) if search.unknown[m]} == unknown
    assert {m for m in range(top + 1) if search.sufficient[m]} == implied_sufficient
    assert search.cut() == brute_cut(unknown, k)


@settings(max_examples=150, deadline=None)
@given(monotone_cubes(), st.booleans())
def test_no_cell_is_asked_twice(case: tuple[Cube, tuple[str, ...]], use_order: bool) -> None:
    cube, order = case
    certificate, asked = certify_counting(cube, order if use_order else None)
    assert len(asked) == len(set(asked)) == certificate.queries + 2
    assert asked[:2] == [0, full_mask(cube.k)]  # the endpoints first, then only interior cells
