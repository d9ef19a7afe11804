"""Property tests: receipts of random adjudicators (label tables) against brute force."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import (
    Cube,
    cell_order,
    certify_adaptive,
    certify_exhaustive,
    full_mask,
    is_antichain,
    receipt_of,
)

LABELS = ("approve", "deny", "refer", "hold")


@st.composite
def cubes(draw: st.DrawFn, max_k: int = 7) -> Cube:
    k = draw(st.integers(1, max_k))
    n_labels = draw(st.integers(2, 4))
    verdicts = draw(st.lists(st.sampled_from(LABELS[:n_labels]), min_size=1 << k, max_size=1 << k))
    sources = tuple(f"S{i}" for i in range(k))
    return Cube(sources, tuple(verdicts))


def subsets(mask: int) -> list[int]:
    bits = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
    return [sum(c) for r in range(len(bits) + 1) for c in combinations(bits, r)]


def brute_force_receipt(cube: Cube) -> set[int]:
    """Independent definition: sufficient sets none of whose proper subsets is sufficient."""
    if cube.old == cube.new:
        return set()
    sufficient = {m for m in range(1 << cube.k) if cube[m] == cube.new}
    return {m for m in sufficient if not any(s in sufficient for s in subsets(m) if s != m)}


@settings(max_examples=300, deadline=None)
@given(cubes())
def test_receipt_matches_brute_force(cube: Cube) -> None:
    assert set(receipt_of(cube).sets) == brute_force_receipt(cube)


@settings(max_examples=300, deadline=None)
@given(cubes())
def test_receipt_sets_are_minimal_sufficient_complete_antichain(cube: Cube) -> None:
    receipt = receipt_of(cube)
    for mask in receipt.sets:
        assert cube[mask] == cube.new
        for sub in subsets(mask):
            if sub != mask:
                assert cube[sub] != cube.new
    assert is_antichain(receipt.sets)
    if receipt.sets:
        for mask in range(1 << cube.k):
            if cube[mask] == cube.new:
                assert any(mask & r == r for r in receipt.sets)


@settings(max_examples=300, deadline=None)
@given(cubes())
def test_no_receipt_iff_endpoints_agree(cube: Cube) -> None:
    receipt = receipt_of(cube)
    assert (receipt.sets == ()) == (cube.old == cube.new)
    assert receipt.stable == (cube.old == cube.new)
    assert (receipt.min_size is None) == receipt.stable


@settings(max_examples=300, deadline=None)
@given(cubes(max_k=3))
def test_three_sources_hold_at_most_three_sets(cube: Cube) -> None:
    assert len(receipt_of(cube).sets) <= 3


@settings(max_examples=300, deadline=None)
@given(cubes())
def test_adaptive_equals_exhaustive_within_bound(cube: Cube) -> None:
    queried: list[int] = []

    def oracle(mask: int) -> str:
        queried.append(mask)
        return cube[mask]

    adaptive = certify_adaptive(oracle, cube.sources)
    exhaustive = certify_exhaustive(cube.oracle(), cube.sources)
    assert adaptive.receipt == exhaustive.receipt
    interior = [m for m in queried if m not in (0, full_mask(cube.k))]
    assert adaptive.queries == len(interior) == len(set(interior))
    assert adaptive.queries <= (1 << cube.k) - 2


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.data())
def test_query_bound_attained_without_sufficient_interior(k: int, data: st.DataObject) -> None:
    # old label everywhere except the top cell: no interior cell suffices, nothing can be skipped
    interior = data.draw(
        st.lists(st.sampled_from(["deny", "refer"]), min_size=(1 << k) - 2, max_size=(1 << k) - 2)
    )
    verdicts = ["deny", *interior, "approve"] if k > 0 else []
    cube = Cube(tuple(f"S{i}" for i in range(k)), tuple(verdicts))
    certificate = certify_adaptive(cube.oracle(), cube.sources)
    assert certificate.queries == (1 << k) - 2 == certificate.max_queries
    assert certificate.receipt.sets == (full_mask(k),)


def test_cell_order_for_three_sources() -> None:
    cube = Cube.from_oracle(lambda m: str(m), ("G", "N", "A"))
    assert list(cube.cells()) == ["", "G", "N", "A", "G+N", "G+A", "N+A", "G+N+A"]
    assert cell_order(3) == (0, 1, 2, 4, 3, 5, 6, 7)


@settings(max_examples=100, deadline=None)
@given(cubes(max_k=5))
def test_min_size_is_the_size_of_the_smallest_sufficient_set(cube: Cube) -> None:
    # The smallest sufficient set is always minimal, so min_size needs no receipt to define it;
    # a max() in place of min() (a user's mutation) fails here on any mixed-size receipt.
    receipt = receipt_of(cube)
    sizes = [bin(m).count("1") for m in range(1 << cube.k) if cube[m] == cube.new]
    assert receipt.min_size == (None if receipt.stable else min(sizes))
    assert receipt.ambiguous == (len(brute_force_receipt(cube)) > 1)
    assert receipt.to_json()["min_size"] == receipt.min_size
