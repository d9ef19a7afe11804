"""Hand-built receipts: the spec's examples, JSON round trips and hybrids of real states."""

from __future__ import annotations

import pytest

from reasonbench.core import (
    Cube,
    EvaluatorState,
    Receipt,
    changed_sources,
    execute_cube,
    hybrid,
    receipt_of,
)


def cube_of(cells: dict[str, str]) -> Cube:
    return Cube.from_cells(cells)


def test_two_single_sources_each_suffice() -> None:
    cube = cube_of(
        {
            "": "deny",
            "G": "approve",
            "N": "approve",
            "A": "deny",
            "G+N": "approve",
            "G+A": "approve",
            "N+A": "approve",
            "G+N+A": "approve",
        }
    )
    receipt = receipt_of(cube)
    assert receipt.family() == [["G"], ["N"]]
    assert receipt.ambiguous and receipt.min_size == 1


def test_joint_replacement_needed() -> None:
    cube = cube_of(
        {
            "": "deny",
            "G": "deny",
            "N": "refer",
            "A": "deny",
            "G+N": "approve",
            "G+A": "deny",
            "N+A": "refer",
            "G+N+A": "approve",
        }
    )
    assert receipt_of(cube).family() == [["G", "N"]]
    assert receipt_of(cube).min_size == 2


def test_stable_case_has_no_receipt() -> None:
    cube = cube_of(
        {
            "": "deny",
            "G": "approve",
            "N": "deny",
            "A": "refer",
            "G+N": "deny",
            "G+A": "deny",
            "N+A": "deny",
            "G+N+A": "deny",
        }
    )
    receipt = receipt_of(cube)
    assert receipt.stable and receipt.family() == [] and receipt.min_size is None
    assert not receipt.ambiguous


def test_receipt_json_round_trip() -> None:
    cube = cube_of(
        {
            "": "deny",
            "G": "deny",
            "N": "deny",
            "A": "deny",
            "G+N": "approve",
            "G+A": "approve",
            "N+A": "approve",
            "G+N+A": "approve",
        }
    )
    receipt = receipt_of(cube)
    assert receipt.family() == [["G", "N"], ["G", "A"], ["N", "A"]]
    assert Receipt.from_json(receipt.to_json()) == receipt
    assert Cube.from_json(cube.to_json()) == cube


def test_cube_rejects_missing_extra_and_unknown_cells() -> None:
    with pytest.raises(ValueError, match="missing cell"):
        Cube.from_cells({"": "a", "G": "b"}, ("G", "N"))
    with pytest.raises(ValueError, match="unknown source 'X'"):
        Cube.from_cells({"": "a", "G": "b", "X": "c", "G+X": "d"}, ("G", "N"))
    with pytest.raises(ValueError, match="given twice"):
        Cube.from_cells({"": "a", "G": "b", "N": "c", "G+N": "d", "N+G": "d"}, ("G", "N"))


class Threshold:
    """A toy adjudicator: approve when grounds meet the norm's threshold, refer without authority."""

    labels = frozenset({"approve", "deny", "refer"})

    def adjudicate(self, state: EvaluatorState[int]) -> str:
        if not state["A"]:
            return "refer"
        return "approve" if state["G"] >= state["N"] else "deny"


def test_execute_cube_on_states() -> None:
    old = EvaluatorState.of(G=5, N=10, A=1)
    new = EvaluatorState.of(G=12, N=3, A=1)
    assert hybrid(old, new, 0b001) == EvaluatorState.of(G=12, N=10, A=1)
    assert changed_sources(old, new) == 0b011
    cube = execute_cube(Threshold(), old, new)
    assert receipt_of(cube).family() == [["G"], ["N"]]


def test_authority_removal_refers() -> None:
    old = EvaluatorState.of(G=12, N=10, A=1)
    new = old.replace(A=0)
    assert receipt_of(execute_cube(Threshold(), old, new)).family() == [["A"]]
    with pytest.raises(KeyError, match="unknown source"):
        old.replace(X=1)
