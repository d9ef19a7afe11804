"""Scoring one prediction against gold: the per-example facts every metric aggregates."""

from __future__ import annotations

import json
from dataclasses import dataclass

from reasonbench.analysis.gold import Gold
from reasonbench.core.accounting import Outcome, classify
from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import family_masks
from reasonbench.predictions.record import PredictionRecord


def said(record: PredictionRecord, sources: tuple[str, ...]) -> Answer:
    """What a prediction says, in comparable form; unparseable JSON fields count as absent."""
    sets = cube = None
    if record.pred_receipt is not None:
        try:
            sets = family_masks(json.loads(record.pred_receipt), sources)
        except (ValueError, TypeError):
            sets = None
    if record.pred_cube is not None:
        try:
            cube = Cube.from_cells(json.loads(record.pred_cube), sources)
        except (ValueError, TypeError, AttributeError):
            cube = None
    return Answer(record.pred_old_verdict, record.pred_new_verdict, sets, cube)


@dataclass(frozen=True)
class Scored:
    gold: Gold
    record: PredictionRecord
    said: Answer
    outcome: Outcome | None  # None for verdict-only predictions (no old verdict to account)
    verdict_correct: bool
    receipt_correct: bool | None
    endpoints_correct: bool | None
    cube_cells_correct: int | None  # out of 2^k

    @property
    def account_correct(self) -> bool:
        return self.outcome is Outcome.ATTRIBUTED


def accounts_for_changes(records: list[PredictionRecord]) -> bool:
    """Whether a method states old verdicts or receipts at all (else it is verdict-only and
    change accounting does not apply to it)."""
    return any(r.pred_old_verdict is not None or r.pred_receipt is not None for r in records)


def score(gold: Gold, record: PredictionRecord, accounts: bool) -> Scored:
    """Score one record; ``accounts`` is :func:`accounts_for_changes` of its method, so a parse
    failure of a receipt method counts as wrong on every receipt metric."""
    s = said(record, gold.cube.sources)
    verdict_ok = s.new == gold.receipt.new
    outcome = receipt_ok = endpoints_ok = None
    if accounts:
        outcome = classify(gold.receipt, s)
        receipt_ok = s.sets == gold.receipt.sets and s.old is not None
        endpoints_ok = s.old == gold.receipt.old and s.new == gold.receipt.new
    cells = None
    if s.cube is not None:
        cells = sum(a == b for a, b in zip(s.cube.verdicts, gold.cube.verdicts, strict=True))
    return Scored(gold, record, s, outcome, verdict_ok, receipt_ok, endpoints_ok, cells)
