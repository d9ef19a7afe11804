"""``assume=monotone``: the documented query policy (the cut, what an answer settles) against
brute force, and no cell is ever asked twice (found by mutation testing, docs/testing.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, Cube, cell_order, full_mask
from reasonbench.core.monotone import _Search
from tests.core.test_monotone import ORDER, certify_counting, monotone_cubes


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


@settings(max_examples=60, deadline=None)
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


@settings(max_examples=80, deadline=None)
@given(monotone_cubes(max_k=6), st.booleans())
def test_no_cell_is_asked_twice(case: tuple[Cube, tuple[str, ...]], use_order: bool) -> None:
    cube, order = case
    certificate, asked = certify_counting(cube, order if use_order else None)
    assert len(asked) == len(set(asked)) == certificate.queries + 2
    assert asked[:2] == [0, full_mask(cube.k)]  # the endpoints first, then only interior cells


def reference_queries(cube: Cube) -> list[int]:
    """The documented query sequence on a monotone table, on plain sets: endpoints, then cut
    after cut, each followed by the walk to the border (docs of reasonbench.core.monotone)."""
    k, top = cube.k, full_mask(cube.k)
    asked = [0, top]
    if cube[0] == cube[top]:
        return asked
    unknown = set(range(1, top))

    def ask(mask: int) -> bool:
        asked.append(mask)
        is_sufficient = cube[mask] == cube[top]
        if is_sufficient:
            unknown.difference_update({v for v in unknown if v & mask == mask})
        else:
            unknown.difference_update({v for v in unknown if v & mask == v})
        return is_sufficient

    while (cell := brute_cut(unknown, k)) is not None:
        mask, is_sufficient = cell, ask(cell)
        moved = True
        while moved:
            moved = False
            # down (drop one source) from a sufficient cell, up (add one) from an insufficient
            steps = [i for i in range(k) if bool(mask >> i & 1) == is_sufficient]
            for i in steps:
                neighbour = mask ^ (1 << i)
                if neighbour in unknown and ask(neighbour) == is_sufficient:
                    mask, moved = neighbour, True
                    break
    return asked


@settings(max_examples=80, deadline=None)
@given(monotone_cubes(max_k=6), st.booleans())
def test_queries_follow_the_documented_sequence(
    case: tuple[Cube, tuple[str, ...]], use_order: bool
) -> None:
    cube, order = case
    certificate, asked = certify_counting(cube, order if use_order else None)
    assert asked == reference_queries(cube)
    assert certificate.order == (order if use_order else None)


@settings(max_examples=50, deadline=None)
@given(monotone_cubes(max_k=4))
def test_a_stable_certificate_keeps_its_order(case: tuple[Cube, tuple[str, ...]]) -> None:
    cube, order = case
    stable = Cube(cube.sources, tuple(cube.old for _ in cube.verdicts))
    certificate, asked = certify_counting(stable, order)
    assert certificate.order == order and certificate.queries == 0
    assert asked == [0, full_mask(cube.k)] and certificate.receipt.sets == ()


def test_a_broken_assumption_keeps_the_declared_order() -> None:
    # N alone gives refer, N+A falls back to deny: refer > deny against N ⊂ N+A in the order
    cube = Cube(GNA, ("deny", "deny", "refer", "approve", "deny", "deny", "deny", "approve"))
    certificate, _ = certify_counting(cube, ORDER)
    assert certificate.violation is not None and certificate.order == ORDER
