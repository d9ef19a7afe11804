"""The per-record checks of ``analyze`` on hand-built records (found by mutation testing,
docs/testing.md): the exact message of each refusal, which labels a stratum allows, and records of
examples the gold does not know — without a benchmark on disk (``test_validate.py`` runs the same
checks through ``analyze`` and the CLI)."""

from __future__ import annotations

from dataclasses import replace

from reasonbench.analysis.validate import label_sets, record_checker
from reasonbench.core import Answer, Cube
from reasonbench.predictions.answers import answer_record
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import ParseFailure
from tests.analysis.helpers import gold

CASE = gold("e1", stratum="logical")  # the helpers' cube: deny/approve cells over G, N, A


def said(answer: Answer | ParseFailure, target: str = "direct_receipt") -> PredictionRecord:
    return answer_record(
        example_id="e1", method="m", seed=0, split="test_locked", target=target,
        raw_output="x", answer=answer,
    )  # fmt: skip


def problem(record: PredictionRecord) -> str | None:
    golds = {"e1": CASE}
    return record_checker(golds, label_sets(golds))(record)


def test_labels_are_the_registered_ones_and_those_the_gold_uses() -> None:
    labels = label_sets({"e1": CASE, "e2": gold("e2", stratum="custom")})
    # logical registers holds/fails/refer; its gold here uses deny/approve
    assert labels == {
        "custom": frozenset({"deny", "approve"}),
        "logical": frozenset({"holds", "fails", "refer", "deny", "approve"}),
    }


def test_a_verdict_outside_the_labels_names_the_field_and_the_stratum() -> None:
    assert problem(said(Answer("deny", "approve", (1,)))) is None
    assert problem(said(Answer("refer", "holds", (1,)))) is None  # registered, unused by gold
    long = "x" * 50
    assert problem(said(Answer(long, "approve", (1,)))) == (
        f"pred_old_verdict {'x' * 40!r} is not a verdict of the logical stratum"
    )
    assert problem(said(Answer("deny", "maybe", (1,)))) == (
        "pred_new_verdict 'maybe' is not a verdict of the logical stratum"
    )
    cells = ("deny", "approve", "deny", "maybe", "deny", "approve", "deny", "approve")
    cube = said(Answer.of_cube(Cube(CASE.cube.sources, cells)), target="cube")
    assert problem(cube) == "pred_cube cell 'maybe' is not a verdict of the logical stratum"


def test_a_parse_failure_must_say_nothing() -> None:
    failed = said(ParseFailure("direct_receipt", "no JSON"))
    assert problem(failed) is None
    both = replace(failed, pred_old_verdict="deny", pred_receipt='[["G"]]')
    assert problem(both) == "parse_ok is false but pred_old_verdict, pred_receipt is set"
    one = replace(failed, pred_cube="{}")
    assert problem(one) == "parse_ok is false but pred_cube is set"


def test_records_of_unknown_examples_are_left_to_the_loader() -> None:
    golds = {"e1": CASE}
    check = record_checker(golds, label_sets(golds))
    assert check(replace(said(Answer("deny", "maybe", (1,))), example_id="e9")) is None
