"""Gold satisfies every control relation; deliberately wrong predictions violate it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.controls import (
    CONTROL_KINDS,
    inverse_cube,
    minimal_transversals,
    two_label_monotone,
)
from reasonbench.core import GNA, Answer, Cube, receipt_of

LABELS = ("approve", "deny", "refer")
cubes = st.lists(st.sampled_from(LABELS), min_size=8, max_size=8).map(lambda v: Cube(GNA, tuple(v)))


def consistent(kind: str, parent: Answer, control: Answer, gold_forward: Cube) -> bool | None:
    """The relation of the registered control kind ``kind``, called as the audit and the analysis
    call it (through the registry)."""
    return CONTROL_KINDS.get(kind).relation(parent, control, gold_forward)


def gold(cube: Cube, with_cube: bool = True) -> Answer:
    receipt = receipt_of(cube)
    return Answer(receipt.old, receipt.new, receipt.sets, cube if with_cube else None)


@st.composite
def monotone_cubes(draw: st.DrawFn) -> Cube:
    """Two labels, new-verdict cells upward closed: generated from a random antichain."""
    generators = draw(st.lists(st.integers(1, 7), min_size=1, max_size=3))
    cells = tuple("approve" if any(m & g == g for g in generators) else "deny" for m in range(8))
    return Cube(GNA, cells)


@settings(max_examples=300, deadline=None)
@given(cubes)
def test_gold_satisfies_every_relation(cube: Cube) -> None:
    forward, inverse = gold(cube), gold(inverse_cube(cube))
    assert consistent("inverse", forward, inverse, cube) is True
    assert consistent("permutation", forward, forward, cube) is True
    assert consistent("distractor", forward, forward, cube) is True


@settings(max_examples=300, deadline=None)
@given(monotone_cubes())
def test_monotone_inverse_receipt_is_minimal_transversals(cube: Cube) -> None:
    assert two_label_monotone(cube)
    inverse = receipt_of(inverse_cube(cube))
    assert sorted(inverse.sets) == sorted(minimal_transversals(receipt_of(cube).sets, 3))


@settings(max_examples=200, deadline=None)
@given(monotone_cubes())
def test_receipt_only_predictions_checked_by_transversals(cube: Cube) -> None:
    forward = gold(cube, with_cube=False)
    inverse = gold(inverse_cube(cube), with_cube=False)
    assert consistent("inverse", forward, inverse, cube) is True
    wrong = Answer(inverse.old, inverse.new, ((inverse.sets or (1,))[0] ^ 0b111,))
    if sorted(wrong.sets or ()) != sorted(inverse.sets or ()):
        assert consistent("inverse", forward, wrong, cube) is False


@settings(max_examples=200, deadline=None)
@given(cubes)
def test_wrong_predictions_violate(cube: Cube) -> None:
    forward = gold(cube)
    flipped = Answer(forward.new, forward.old, forward.sets, forward.cube)
    if forward.old != forward.new:
        assert consistent("permutation", forward, flipped, cube) is False
        # an inverse prediction that keeps the forward endpoints fails the swap
        assert consistent("inverse", forward, forward, cube) is False
    other = Answer(forward.old, forward.new, (0b111,) if forward.sets != (0b111,) else (0b001,))
    assert (
        consistent("distractor", Answer(forward.old, forward.new, forward.sets), other, cube)
        is False
    )


def test_direct_verdict_pairs_are_not_checkable_for_inverse() -> None:
    cube = Cube(GNA, ("deny",) + ("approve",) * 7)
    assert (
        consistent("inverse", Answer(None, "approve", None), Answer(None, "deny", None), cube)
        is None
    )


def test_minimal_transversals_example() -> None:
    # {G}, {N, A}: every hitting set needs G and one of N, A
    assert minimal_transversals((0b001, 0b110), 3) == (0b011, 0b101)


def test_quarantine_applies_only_to_strata_that_build_it() -> None:
    from typing import Any

    class Plain:
        pass

    class Agentic:
        def quarantine_control(self, transition: Any, rng: Any) -> None:
            return None

    def applies(kind: str, stratum: Any) -> bool:
        return CONTROL_KINDS.get(kind).applies(stratum)

    assert applies("quarantine", Agentic()) and not applies("quarantine", Plain())
    assert all(applies(kind, Plain()) for kind in ("inverse", "permutation", "distractor"))
    assert CONTROL_KINDS.names() == ("inverse", "permutation", "distractor", "quarantine")
