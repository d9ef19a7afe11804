"""Scoring one prediction against its definitions: what each target carries, the per-example
facts for every target and answer, and the refusals of malformed prediction fields (found by
mutation testing, docs/testing.md)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.scoring import Carried, carried, cube_cells, project, receipt_masks
from reasonbench.core import GNA, Answer, Cube, Outcome, classify, receipt_of
from tests.analysis.helpers import gold, scored

LABELS = ("approve", "deny", "refer")


def test_what_each_target_carries() -> None:
    assert carried("direct_verdict") == Carried(False, True, False, False)
    assert carried("direct_verdict").verdict_only
    assert (
        carried("direct_receipt")
        == carried("rationale_receipt")
        == Carried(True, True, True, False)
    )
    assert carried("cube") == Carried(True, True, True, True)
    assert not carried("cube").verdict_only and not carried("direct_receipt").verdict_only
    assert not Carried(False, True, False, True).verdict_only
    cube = Cube(GNA, ("deny",) * 7 + ("approve",))
    full = Answer.of_cube(cube)
    assert project(full, carried("direct_verdict")) == Answer(None, "approve", None, None)
    assert project(full, carried("direct_receipt")) == Answer("deny", "approve", (7,), None)
    assert project(full, carried("cube")) == full


def test_malformed_prediction_fields_are_refused() -> None:
    assert receipt_masks('[["G", "N"], ["A"]]', GNA) == (4, 3)
    long = json.dumps({"x": "y" * 80})
    with pytest.raises(
        ValueError, match=re.escape(f"must be a JSON list of source-name lists, got {long[:60]!r}")
    ):
        receipt_masks(long, GNA)
    with pytest.raises(ValueError, match="must be a JSON list of source-name lists"):
        receipt_masks('[["G"], "N"]', GNA)
    cube = Cube(GNA, tuple("abcdefgh"))
    assert cube_cells(json.dumps(cube.cells()), GNA) == cube
    with pytest.raises(
        ValueError,
        match=re.escape(f"must be a JSON object of cells, got {json.dumps(['y' * 80])[:60]!r}"),
    ):
        cube_cells(json.dumps(["y" * 80]), GNA)


verdicts = st.lists(st.sampled_from(LABELS), min_size=8, max_size=8).map(tuple)


@settings(max_examples=150, deadline=None)
@given(
    verdicts,
    st.sampled_from(["direct_verdict", "direct_receipt", "rationale_receipt", "cube"]),
    st.one_of(st.none(), verdicts),
)
def test_scored_facts_follow_their_definitions(
    gold_cells: tuple[str, ...], target: str, said_cells: tuple[str, ...] | None
) -> None:
    g = gold("e", gold_cells)
    fields = carried(target)
    said = None if said_cells is None else project(Answer.of_cube(Cube(GNA, said_cells)), fields)
    s = scored(g, said, target=target)
    answer = said or Answer(None, None, None, None)
    assert s.answer == answer and s.fields == fields and s.gold == g
    assert s.verdict_correct == (answer.new == g.receipt.new)
    assert s.predicted_change == (answer.changed is True)
    if fields.verdict_only:
        assert (s.outcome, s.receipt_correct, s.endpoints_correct) == (None, None, None)
    else:
        assert s.outcome is classify(g.receipt, answer)
        assert s.receipt_correct == (answer.sets is not None and answer.sets == g.receipt.sets)
        assert s.endpoints_correct == (answer.old == g.receipt.old and answer.new == g.receipt.new)
    assert s.account_correct == (s.outcome is Outcome.ATTRIBUTED)
    if not fields.cube:
        assert s.cube_cells_correct is None
    elif said_cells is None:
        assert s.cube_cells_correct == 0
    else:
        assert s.cube_cells_correct == sum(
            a == b for a, b in zip(said_cells, gold_cells, strict=True)
        )


def test_a_parse_failure_says_nothing() -> None:
    g = gold("e")
    s = scored(g, None, target="direct_receipt")
    assert s.answer == Answer(None, None, None, None)
    assert s.outcome is Outcome.UNPARSED and s.receipt_correct is False
    assert receipt_of(g.cube) == g.receipt
