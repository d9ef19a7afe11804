"""One prediction record from one answer: what every answering path writes (trained runs,
zero-shot and served judges, the Judge Card's items).

The frozen parser of the answer's target has already decided: a :class:`ParseFailure` keeps the
raw output and nulls every predicted field, an :class:`Answer` fills the fields its target
carries. Which component produced the revised verdict (``verdict_source``) is the target's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reasonbench.core.sources import GNA, mask_members
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import ParseResult, get_target
from reasonbench.targets.base import ParseFailure

__all__ = ["answer_record", "row_record"]


def answer_record(
    *,
    example_id: str,
    method: str,
    seed: int,
    split: str,
    target: str,
    raw_output: str,
    answer: ParseResult,
    confidence: float | None = None,
    confidence_source: str | None = None,
    sources: tuple[str, ...] = GNA,
) -> PredictionRecord:
    parsed = None if isinstance(answer, ParseFailure) else answer
    receipt = cube = None
    if parsed is not None and parsed.sets is not None:
        receipt = json.dumps([list(mask_members(m, sources)) for m in parsed.sets])
    if parsed is not None and parsed.cube is not None:
        cube = json.dumps(parsed.cube.cells(), separators=(",", ":"))
    return PredictionRecord(
        example_id=example_id,
        method=method,
        seed=seed,
        split=split,
        target=target,
        raw_output=raw_output,
        parse_ok=parsed is not None,
        pred_old_verdict=None if parsed is None else parsed.old,
        pred_new_verdict=None if parsed is None else parsed.new,
        pred_receipt=receipt,
        pred_cube=cube,
        confidence=None if confidence is None else float(confidence),
        confidence_source=confidence_source,
        # an unparsed answer has no derived verdict; the model is what failed
        verdict_source="model" if parsed is None else get_target(target).verdict_source,
    )


def row_record(
    row: Mapping[str, Any],
    method: str,
    seed: int,
    target: str,
    raw_output: str,
    answer: ParseResult,
    **more: Any,
) -> PredictionRecord:
    """:func:`answer_record` of one benchmark row: its ``id`` and ``split`` name the record."""
    return answer_record(
        example_id=row["id"], split=row["split"], method=method, seed=seed, target=target,
        raw_output=raw_output, answer=answer, **more,
    )  # fmt: skip
