"""Failure accounting on hand-built cases with known answers."""

from __future__ import annotations

import pytest

from reasonbench.core import Answer, Cube, Outcome, account, classify, receipt_of

CHANGED = receipt_of(
    Cube.from_cells(
        {
            "": "deny",
            "G": "approve",
            "N": "deny",
            "A": "deny",
            "G+N": "approve",
            "G+A": "approve",
            "N+A": "deny",
            "G+N+A": "approve",
        }
    )
)
STABLE = receipt_of(
    Cube.from_cells(
        {
            "": "deny",
            "G": "approve",
            "N": "deny",
            "A": "deny",
            "G+N": "deny",
            "G+A": "deny",
            "N+A": "deny",
            "G+N+A": "deny",
        }
    )
)


def pred(old: str | None, new: str | None, family: list[list[str]] | None) -> Answer:
    return Answer.from_family(old, new, family)


@pytest.mark.parametrize(
    ("gold", "prediction", "outcome"),
    [
        (STABLE, pred("deny", "deny", []), Outcome.NO_CHANGE),
        (STABLE, pred("deny", "approve", [["G"]]), Outcome.DRIFT),
        (CHANGED, pred("deny", "deny", []), Outcome.INERTIA),
        (CHANGED, pred("deny", "approve", [["N"]]), Outcome.MISATTRIBUTION),
        (CHANGED, pred("deny", "approve", None), Outcome.MISATTRIBUTION),
        (CHANGED, pred("deny", "approve", [["G"]]), Outcome.ATTRIBUTED),
        (CHANGED, pred("refer", "approve", [["G"]]), Outcome.ATTRIBUTED),
        (CHANGED, pred(None, "approve", [["G"]]), Outcome.UNPARSED),
    ],
)
def test_classify(gold, prediction, outcome) -> None:  # type: ignore[no-untyped-def]
    assert classify(gold, prediction) is outcome


def test_account_batch() -> None:
    pairs = [
        (STABLE, pred("deny", "deny", [])),  # no change, all correct
        (STABLE, pred("deny", "approve", [["G"]])),  # drift
        (CHANGED, pred("deny", "deny", [])),  # inertia
        (CHANGED, pred("deny", "approve", [["N"]])),  # misattribution, endpoints right
        (CHANGED, pred("deny", "approve", [["G"]])),  # attributed
        (CHANGED, pred("refer", "approve", [["G"]])),  # attributed, old verdict wrong
    ]
    summary = account(pairs).to_json()
    assert summary["n"] == 6 and summary["gold_changes"] == 4
    assert summary["outcomes"] == {
        "unparsed": 0,
        "no_change": 1,
        "drift": 1,
        "inertia": 1,
        "misattribution": 1,
        "attributed": 2,
    }
    assert summary["drift_rate"] == pytest.approx(1 / 6)
    assert summary["drift_given_stable"] == pytest.approx(1 / 2)
    assert summary["inertia_given_change"] == pytest.approx(1 / 4)
    assert summary["misattribution_given_change"] == pytest.approx(1 / 4)
    assert summary["revised_verdict_accuracy"] == pytest.approx(4 / 6)
    assert summary["endpoint_accuracy"] == pytest.approx(3 / 6)
    assert summary["receipt_accuracy"] == pytest.approx(3 / 6)
    # both endpoints right on gold changes: rows 4 and 5; one of them has the wrong receipt
    assert summary["eligible_for_separation"] == 2
    assert summary["receipt_error_given_correct_endpoints"] == pytest.approx(1 / 2)


def test_empty_batch_rates_are_undefined_not_zero() -> None:
    summary = account([]).to_json()
    assert summary["receipt_accuracy"] is None
    assert summary["receipt_error_given_correct_endpoints"] is None


def test_only_stable_gold_leaves_change_rates_undefined() -> None:
    summary = account([(STABLE, pred("deny", "deny", []))])
    assert summary.inertia_given_change is None
    assert summary.drift_given_stable == 0.0
