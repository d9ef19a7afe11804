"""What users of the core read back: JSON forms over any source list, states and hybrids, the
error messages that name the problem, and the answer constructors (found by mutation testing,
docs/testing.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from reasonbench.core import (
    GNA,
    Answer,
    Cube,
    EvaluatorState,
    MonotoneCheck,
    Receipt,
    Violation,
    certify_exhaustive,
    changed_sources,
    check_verdict,
    execute_cube,
    get_adjudicator,
    hybrid,
    mask_from_names,
    monotone_lower_bound,
    receipt_of,
    register_adjudicator,
    registered_adjudicators,
    state_from_mapping,
    validate_order,
)
from tests.core.test_receipt_properties import cubes


class Threshold:
    """Approve when grounds meet the threshold of the norm; refer without authority."""

    labels = frozenset({"approve", "deny", "refer"})

    def adjudicate(self, state: EvaluatorState[int]) -> str:
        if not state["A"]:
            return "refer"
        return "approve" if state["G"] >= state["N"] else "deny"


class Parity:
    """Over any two sources: approve when the components' sum is even."""

    labels = frozenset({"approve", "deny", "refer"})

    def adjudicate(self, state: EvaluatorState[int]) -> str:
        return "approve" if sum(state.components) % 2 == 0 else "deny"


@settings(max_examples=100, deadline=None)
@given(cubes(max_k=4))
def test_receipt_json_names_every_field(cube: Cube) -> None:
    receipt = receipt_of(cube)
    assert receipt.to_json() == {
        "stable": cube.old == cube.new,
        "old": cube.old,
        "new": cube.new,
        "receipt": receipt.family(),
        "min_size": receipt.min_size,
        "ambiguous": len(receipt.sets) > 1,
    }
    # the round trips keep the cube's own sources, not the paper's (G, N, A)
    assert Receipt.from_json(receipt.to_json(), cube.sources) == receipt
    assert Cube.from_json(cube.to_json()) == cube


@settings(max_examples=50, deadline=None)
@given(cubes(max_k=5))
def test_answers_of_a_cube_and_of_its_receipt(cube: Cube) -> None:
    receipt = receipt_of(cube)
    assert Answer.of_cube(cube) == Answer(cube.old, cube.new, receipt.sets, cube)
    assert Answer.of_receipt(receipt) == Answer(cube.old, cube.new, receipt.sets, None)
    assert Answer.from_family(cube.old, cube.new, receipt.family(), cube.sources) == (
        Answer.of_receipt(receipt)
    )
    assert Answer.from_family("a", None, None, cube.sources, cube) == Answer("a", None, None, cube)
    assert cube.in_cell_order() == tuple(cube.cells().values())


@settings(max_examples=50, deadline=None)
@given(cubes(max_k=5))
def test_a_stable_cube_needs_no_query(cube: Cube) -> None:
    stable = Cube(cube.sources, tuple(cube.old for _ in cube.verdicts))
    assert monotone_lower_bound(stable) == 0


def test_states_replace_hybrid_and_changed_sources() -> None:
    old = EvaluatorState.of(G=5, N=10, A=1)
    new = old.replace(G=7)
    assert new.as_dict() == {"G": 7, "N": 10, "A": 1} and new["G"] == 7
    assert changed_sources(old, old) == 0 and changed_sources(old, new) == 0b001
    assert state_from_mapping({"A": 1, "N": 10, "G": 7}, GNA) == new
    with pytest.raises(KeyError, match=r"state is missing source\(s\) \['A'\]"):
        state_from_mapping({"G": 1, "N": 2}, GNA)
    with pytest.raises(ValueError, match="state has 2 components for 3 sources"):
        EvaluatorState(GNA, (1, 2))
    with pytest.raises(KeyError, match=r"unknown source 'X' \(sources are \['G', 'N', 'A'\]\)"):
        old["X"]
    other = EvaluatorState(("G", "N"), (1, 2))
    for build in (hybrid, lambda o, n, *_: changed_sources(o, n)):
        with pytest.raises(ValueError, match="old and new declare different sources"):
            build(old, other, 0)


def test_execute_cube_keeps_the_states_sources() -> None:
    old, new = EvaluatorState(("X", "Y"), (1, 2)), EvaluatorState(("X", "Y"), (2, 2))
    cube = execute_cube(Parity(), old, new)
    assert cube.sources == ("X", "Y")
    assert cube.cells() == {"": "deny", "X": "approve", "Y": "deny", "X+Y": "approve"}


def test_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match="source 'G' repeated in one cell"):
        mask_from_names(["G", "G"], GNA)
    with pytest.raises(
        ValueError,
        match=r"adjudicator Threshold returned 'hold', outside its labels "
        r"\['approve', 'deny', 'refer'\]",
    ):
        check_verdict(Threshold(), "hold")
    with pytest.raises(ValueError, match="cell key 3 is not a string"):
        Cube.from_cells({3: "a"}, ("G",))  # type: ignore[dict-item]
    for bad in (5, ""):
        with pytest.raises(
            ValueError, match=f"cell 'G': verdict must be a non-empty string, got {bad!r}"
        ):
            Cube.from_cells({"": "a", "G": bad}, ("G",))  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (1, "missing cell(s) 'G', 'N', 'A', 'G+N', 'G+A' and 2 more"),
        (2, "missing cell(s) 'N', 'A', 'G+N', 'G+A', 'N+A' and 1 more"),
        (3, "missing cell(s) 'A', 'G+N', 'G+A', 'N+A', 'G+N+A'"),
    ],
)
def test_missing_cells_are_listed_five_at_most(given: int, message: str) -> None:
    cells = dict(list(Cube(GNA, tuple("abcdefgh")).cells().items())[:given])
    with pytest.raises(ValueError) as caught:
        Cube.from_cells(cells)
    assert str(caught.value) == message


def test_violation_describes_its_cells() -> None:
    assert Violation(0, 0b011, "deny", "approve").describe(GNA) == (
        "V(∅) = 'deny' but its superset V(G+N) = 'approve', against the declared monotone order"
    )
    assert Violation(0b001, 0, "refer", "deny").describe(GNA) == (
        "V(G) = 'refer' but its superset V(∅) = 'deny', against the declared monotone order"
    )


def test_registered_adjudicators_are_built_by_name() -> None:
    from reasonbench.core.adjudicator import ADJUDICATORS

    register_adjudicator("core-test-threshold")(Threshold)
    try:
        assert "core-test-threshold" in registered_adjudicators()
        assert list(registered_adjudicators()) == sorted(registered_adjudicators())
        built = get_adjudicator("core-test-threshold")
        assert isinstance(built, Threshold)
        assert check_verdict(built, built.adjudicate(EvaluatorState.of(G=1, N=2, A=0))) == "refer"
    finally:
        ADJUDICATORS.unregister("core-test-threshold")


def test_verdict_orders_are_validated() -> None:
    assert validate_order(["deny", "refer", "approve"]) == ("deny", "refer", "approve")
    for bad in (["deny"], ["deny", ""], ["deny", 3]):
        with pytest.raises(ValueError, match=r"lists at least two non-empty labels, got \["):
            validate_order(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"must not repeat a label, got \['a', 'a'\]"):
        validate_order(["a", "a"])


def test_the_plain_check_reports_a_sufficient_set_below_an_insufficient_one() -> None:
    # certify_monotone never asks such a pair (it settles them), so the check is tested alone
    check = MonotoneCheck("deny", "approve")
    assert check.answer(0b001, "approve") is None
    assert check.answer(0b011, "deny") == Violation(0b001, 0b011, "approve", "deny")
    check = MonotoneCheck("deny", "approve")
    assert check.answer(0b011, "refer") is None
    assert check.answer(0b001, "approve") == Violation(0b001, 0b011, "approve", "refer")
    assert check.answer(0b100, "approve") is None  # incomparable with both


@settings(max_examples=30, deadline=None)
@given(cubes(max_k=5))
def test_exhaustive_certification_pays_every_interior_cell(cube: Cube) -> None:
    certificate = certify_exhaustive(cube.oracle(), cube.sources)
    assert certificate.queries == certificate.max_queries == (1 << cube.k) - 2


def test_a_cube_needs_all_its_cells() -> None:
    with pytest.raises(ValueError, match="a cube over 3 sources needs 8 cells, got 7"):
        Cube(GNA, ("deny",) * 7)
