"""Scoring one prediction against gold: the per-example facts every metric aggregates.

What a method answers is decided by the target its records declare (the record's ``target``),
never by which fields happened to parse: :func:`carried` reads it off the target itself (the
fields its frozen parser returns for a well-formed answer). A parse failure is a wrong answer on
every field its target carries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache

from reasonbench.analysis.gold import Gold
from reasonbench.core.accounting import Outcome, classify
from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import family_masks, receipt_of
from reasonbench.core.sources import GNA
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import get_target

__all__ = [
    "Carried",
    "Scored",
    "carried",
    "cube_cells",
    "project",
    "receipt_masks",
    "said",
    "score",
]

# A changed, two-label cube: every target writes something for it, so its parse says what it carries.
_PROBE = Cube(GNA, ("deny", "approve", "deny", "deny", "approve", "approve", "deny", "approve"))


@dataclass(frozen=True)
class Carried:
    """Which fields of an :class:`Answer` a target carries."""

    old: bool
    new: bool
    sets: bool
    cube: bool

    @property
    def verdict_only(self) -> bool:
        return not (self.old or self.sets or self.cube)


@cache
def carried(target: str) -> Carried:
    """The fields ``target``'s parser returns for its own serialization of a changed case."""
    spec = get_target(target)
    text = spec.serialize(_PROBE, receipt_of(_PROBE), "a probe rationale")
    answer = spec.parse(text, frozenset(_PROBE.verdicts), GNA)
    return Carried(
        answer.old is not None,
        answer.new is not None,
        answer.sets is not None,
        answer.cube is not None,
    )


def project(answer: Answer, fields: Carried) -> Answer:
    """``answer`` restricted to the fields a target carries (gold as that target would say it)."""
    return Answer(
        answer.old if fields.old else None,
        answer.new if fields.new else None,
        answer.sets if fields.sets else None,
        answer.cube if fields.cube else None,
    )


@lru_cache(maxsize=1 << 16)
def receipt_masks(text: str, sources: tuple[str, ...]) -> tuple[int, ...]:
    """A ``pred_receipt`` as masks; ``ValueError``/``TypeError`` when it is not a family of
    source-name lists (cached: a method writes few distinct receipts)."""
    family = json.loads(text)
    if not isinstance(family, list) or not all(isinstance(s, list) for s in family):
        raise ValueError(f"must be a JSON list of source-name lists, got {text[:60]!r}")
    return family_masks(family, sources)


@lru_cache(maxsize=1 << 16)
def cube_cells(text: str, sources: tuple[str, ...]) -> Cube:
    """A ``pred_cube`` as a cube; ``ValueError`` unless it has exactly the 2^k cells (cached)."""
    cells = json.loads(text)
    if not isinstance(cells, dict):
        raise ValueError(f"must be a JSON object of cells, got {text[:60]!r}")
    return Cube.from_cells(cells, sources)


def said(record: PredictionRecord, sources: tuple[str, ...]) -> Answer:
    """What a prediction says; nothing for a parse failure. The JSON fields were validated on
    load (:mod:`reasonbench.analysis.validate`), so a malformed one raises ``ValueError``."""
    if not record.parse_ok:
        return Answer(None, None, None, None)
    sets = None if record.pred_receipt is None else receipt_masks(record.pred_receipt, sources)
    cube = None if record.pred_cube is None else cube_cells(record.pred_cube, sources)
    return Answer(record.pred_old_verdict, record.pred_new_verdict, sets, cube)


@dataclass(frozen=True)
class Scored:
    gold: Gold
    record: PredictionRecord
    answer: Answer
    fields: Carried  # what the record's target carries
    outcome: Outcome | None  # None for verdict-only targets (no old verdict to account)
    verdict_correct: bool
    receipt_correct: bool | None  # None: the target carries no receipt
    endpoints_correct: bool | None
    cube_cells_correct: int | None  # cube targets: cells right out of 2^k (0 on a parse failure)

    @property
    def account_correct(self) -> bool:
        return self.outcome is Outcome.ATTRIBUTED

    @property
    def predicted_change(self) -> bool:
        return self.answer.changed is True


def score(gold: Gold, record: PredictionRecord) -> Scored:
    """Score one record against its gold; what is scored follows the record's target."""
    fields = carried(record.target)
    answer = said(record, gold.cube.sources)
    receipt = gold.receipt
    outcome = receipt_ok = endpoints_ok = None
    if not fields.verdict_only:
        outcome = classify(receipt, answer)
        receipt_ok = answer.sets is not None and answer.sets == receipt.sets
        endpoints_ok = answer.old == receipt.old and answer.new == receipt.new
    cells = None
    if fields.cube:
        cells = 0
        if answer.cube is not None:
            cells = sum(
                a == b for a, b in zip(answer.cube.verdicts, gold.cube.verdicts, strict=True)
            )
    return Scored(
        gold,
        record,
        answer,
        fields,
        outcome,
        answer.new == receipt.new,
        receipt_ok,
        endpoints_ok,
        cells,
    )
