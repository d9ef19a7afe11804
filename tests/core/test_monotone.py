"""``assume=monotone``: exact on monotone tables, within bounds, and a broken assumption is
caught whenever the cells the certifier saw contradict it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import (
    Cube,
    certify_exhaustive,
    certify_monotone,
    full_mask,
    monotone_lower_bound,
)
from reasonbench.core.monotone import MonotoneCertificate
from reasonbench.core.sources import cell_order

POOL = ("approve", "deny", "refer", "hold")
ORDER = ("deny", "refer", "approve")


def up_set(generators: Sequence[int], k: int) -> list[bool]:
    return [any(m & g == g for g in generators) for m in range(1 << k)]


@st.composite
def monotone_cubes(draw: st.DrawFn, max_k: int = 8) -> tuple[Cube, tuple[str, ...]]:
    """A random cube monotone in a random verdict order, in a random direction.

    The verdict level of a cell is the number of random up-sets (none contains ∅, all contain
    the full set) it belongs to: a sum of monotone indicators is monotone."""
    k = draw(st.integers(1, max_k))
    order = tuple(draw(st.permutations(POOL))[: draw(st.integers(2, 4))])
    masks = st.integers(1, full_mask(k))
    ups = [up_set(draw(st.lists(masks, min_size=1, max_size=6)), k) for _ in range(len(order) - 1)]
    levels = [sum(u[m] for u in ups) for m in range(1 << k)]
    if draw(st.booleans()):
        levels = [len(order) - 1 - v for v in levels]  # a change down the order
    cube = Cube(tuple(f"S{i}" for i in range(k)), tuple(order[v] for v in levels))
    return cube, order


def brute_lower_bound(cube: Cube) -> int:
    """Independent count: interior sufficient sets with no sufficient proper subset, plus
    interior insufficient sets with no insufficient proper superset."""
    if not cube.changed:
        return 0
    top = full_mask(cube.k)
    suff = {m for m in range(top + 1) if cube[m] == cube.new}
    minimal = {m for m in suff if not any(s != m and s & m == s for s in suff)}
    insuff = set(range(top + 1)) - suff
    maximal = {m for m in insuff if not any(s != m and s & m == m for s in insuff)}
    return len((minimal | maximal) - {0, top})


def certify_counting(
    cube: Cube, order: Sequence[str] | None
) -> tuple[MonotoneCertificate, list[int]]:
    asked: list[int] = []

    def oracle(mask: int) -> str:
        asked.append(mask)
        return cube[mask]

    return certify_monotone(oracle, cube.sources, order), asked


@settings(max_examples=200, deadline=None)
@given(monotone_cubes(), st.booleans())
def test_equals_exhaustive_on_monotone_tables(
    case: tuple[Cube, tuple[str, ...]], use_order: bool
) -> None:
    cube, order = case
    certificate, asked = certify_counting(cube, order if use_order else None)
    assert certificate.violation is None
    assert certificate.receipt == certify_exhaustive(cube.oracle(), cube.sources).receipt
    interior = [m for m in asked if m not in (0, full_mask(cube.k))]
    assert len(interior) == len(set(interior)) == certificate.queries
    assert brute_lower_bound(cube) <= certificate.queries <= (1 << cube.k) - 2


@settings(max_examples=200, deadline=None)
@given(monotone_cubes())
def test_lower_bound_matches_definition(case: tuple[Cube, tuple[str, ...]]) -> None:
    cube, _ = case
    assert monotone_lower_bound(cube) == brute_lower_bound(cube)


@st.composite
def any_cubes(draw: st.DrawFn, max_k: int = 6) -> Cube:
    k = draw(st.integers(1, max_k))
    cells = draw(st.lists(st.sampled_from(ORDER), min_size=1 << k, max_size=1 << k))
    return Cube(tuple(f"S{i}" for i in range(k)), tuple(cells))


def violating_pairs(
    cube: Cube, cells: Sequence[int], order: Sequence[str] | None
) -> list[tuple[int, int]]:
    """Brute force: pairs S ⊂ T among ``cells`` that the declared assumption forbids."""
    if order is None:
        key = {m: int(cube[m] == cube.new) for m in cells}
    else:
        rank = {v: i for i, v in enumerate(order)}
        sign = 1 if rank[cube.old] <= rank[cube.new] else -1
        key = {m: sign * rank[cube[m]] for m in cells}
    return [(s, t) for s in cells for t in cells if s != t and s & t == s and key[s] > key[t]]


@settings(max_examples=300, deadline=None)
@given(any_cubes(), st.booleans())
def test_contradiction_among_seen_cells_is_always_reported(cube: Cube, use_order: bool) -> None:
    order = ORDER if use_order else None
    certificate, asked = certify_counting(cube, order)
    exact = certify_exhaustive(cube.oracle(), cube.sources).receipt
    if certificate.violation is not None:
        v = certificate.violation
        assert (v.lower, v.upper) in violating_pairs(cube, sorted(set(asked)), order)
        assert (cube[v.lower], cube[v.upper]) == (v.lower_verdict, v.upper_verdict)
        assert certificate.receipt == exact  # the fallback is assumption-free
    else:
        assert violating_pairs(cube, sorted(set(asked)), order) == []
        if not violating_pairs(cube, list(range(1 << cube.k)), order):
            assert certificate.receipt == exact  # the cube was monotone after all
    assert certificate.queries == len(set(asked) - {0, full_mask(cube.k)})


def reask_all(inferred: tuple[int, ...]) -> Sequence[int]:
    return inferred


@settings(max_examples=150, deadline=None)
@given(any_cubes(), st.booleans())
def test_reasking_every_inferred_cell_makes_any_receipt_exact(cube: Cube, use_order: bool) -> None:
    order = ORDER if use_order else None
    plain, asked = certify_counting(cube, order)
    checked = certify_monotone(cube.oracle(), cube.sources, order, verify=reask_all)
    exact = certify_exhaustive(cube.oracle(), cube.sources).receipt
    assert checked.receipt == exact
    every = list(range(1 << cube.k))
    if cube.changed and plain.violation is None:
        # the same search, then the inferred cells in cell order, up to the first violation:
        # once every cell is answered, any forbidden pair has been seen
        inferred = tuple(m for m in cell_order(cube.k) if m not in asked)
        assert checked.reasked == inferred[: len(checked.reasked)]
        assert (checked.violation is not None) == bool(violating_pairs(cube, every, order))
        if checked.violation is None:
            assert checked.reasked == inferred
        else:
            assert checked.caught_by_reasking and checked.reasked[-1] in (
                checked.violation.lower,
                checked.violation.upper,
            )
    if plain.receipt != exact:
        assert checked.violation is not None  # a wrong receipt is always caught


@settings(max_examples=100, deadline=None)
@given(monotone_cubes(max_k=6), st.booleans())
def test_reasking_finds_nothing_on_monotone_tables(
    case: tuple[Cube, tuple[str, ...]], use_order: bool
) -> None:
    cube, order = case
    checked = certify_monotone(
        cube.oracle(), cube.sources, order if use_order else None, verify=reask_all
    )
    assert checked.violation is None and not checked.caught_by_reasking
    assert checked.receipt == certify_exhaustive(cube.oracle(), cube.sources).receipt


def test_a_label_beyond_the_new_verdict_is_caught() -> None:
    # deny -> refer, but replacing G alone gives approve: above the revised verdict in the order
    cube = Cube.from_cells(
        {
            "": "deny",
            "G": "approve",
            "N": "deny",
            "A": "deny",
            "G+N": "approve",
            "G+A": "approve",
            "N+A": "deny",
            "G+N+A": "refer",
        }
    )
    certificate, _ = certify_counting(cube, ORDER)
    assert certificate.violation is not None
    assert certificate.violation.upper == full_mask(3)
    assert certificate.receipt == certify_exhaustive(cube.oracle(), cube.sources).receipt
    # sufficiency-monotone alone cannot see it: approve and deny are both "not refer"
    plain, _ = certify_counting(cube, None)
    assert plain.violation is None


def test_refer_below_deny_is_caught_with_an_order() -> None:
    # deny -> approve; N alone moves to refer, N+A falls back to deny: refer > deny against N ⊂ N+A
    cube = Cube.from_cells(
        {
            "": "deny",
            "G": "deny",
            "N": "refer",
            "A": "deny",
            "G+N": "approve",
            "G+A": "deny",
            "N+A": "deny",
            "G+N+A": "approve",
        }
    )
    certificate, asked = certify_counting(cube, ORDER)
    assert {2, 6} <= set(asked)
    assert certificate.violation is not None
    assert certificate.violation.to_json(cube.sources) == {
        "lower": "N",
        "upper": "N+A",
        "lower_verdict": "refer",
        "upper_verdict": "deny",
    }
    assert "against the declared monotone order" in certificate.violation.describe(cube.sources)


def test_stable_case_costs_nothing() -> None:
    cube = Cube(("a", "b"), ("deny", "approve", "refer", "deny"))
    certificate = certify_monotone(cube.oracle(), cube.sources, ORDER)
    assert certificate.receipt.stable and certificate.queries == 0


def test_a_verdict_outside_the_order_is_an_error() -> None:
    cube = Cube(("a",), ("deny", "hold"))
    with pytest.raises(ValueError, match="not in the declared order"):
        certify_monotone(cube.oracle(), cube.sources, ORDER)
    with pytest.raises(ValueError, match="repeat"):
        certify_monotone(cube.oracle(), cube.sources, ("deny", "deny"))
