"""Failure accounting on hand-built cases with known answers (the batch rates are the analysis
metrics: tests/analysis/test_metrics.py)."""

from __future__ import annotations

import pytest

from reasonbench.core import Answer, Cube, Outcome, classify, receipt_of

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


Family = list[list[str]] | None


def pred(old: str | None, new: str | None, family: Family) -> tuple[str | None, str | None, Family]:
    # Built inside the test, not at collection: an answer made at import time would not see a
    # mutated Answer.from_family (mutation testing, docs/testing.md).
    return old, new, family


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
    assert classify(gold, Answer.from_family(*prediction)) is outcome
