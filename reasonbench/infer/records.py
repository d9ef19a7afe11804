"""Prediction records (docs/predictions.md) from generations, parsed by the frozen parsers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reasonbench.core.sources import GNA, mask_members
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets.parse import Parsed, parse_target


def parsed_fields(parsed: Parsed) -> dict[str, Any]:
    receipt = None
    if parsed.sets is not None:
        receipt = json.dumps([list(mask_members(m, GNA)) for m in parsed.sets])
    cube = None
    if parsed.cube is not None:
        cube = json.dumps(parsed.cube.cells(), separators=(",", ":"))
    return {
        "pred_old_verdict": parsed.old,
        "pred_new_verdict": parsed.new,
        "pred_receipt": receipt,
        "pred_cube": cube,
        "verdict_source": "derived_from_cube" if parsed.target == "cube" else "model",
    }


def make_record(
    row: Mapping[str, Any],
    method: str,
    seed: int,
    target: str,
    entry: Mapping[str, Any],
    labels: frozenset[str],
    confidence_source: str,
) -> PredictionRecord:
    """One record; a parse failure keeps the raw output and nulls every predicted field."""
    result = parse_target(target, entry["raw_output"], labels, GNA)
    fields: dict[str, Any] = {
        "pred_old_verdict": None,
        "pred_new_verdict": None,
        "pred_receipt": None,
        "pred_cube": None,
        "verdict_source": "model",
    }
    if isinstance(result, Parsed):
        fields = parsed_fields(result)
    confidence = entry.get(confidence_source)
    return PredictionRecord(
        example_id=row["id"],
        method=method,
        seed=seed,
        split=row["split"],
        raw_output=entry["raw_output"],
        parse_ok=isinstance(result, Parsed),
        confidence=None if confidence is None else float(confidence),
        # the source labels every record of the run, also those without a value (a verdict that
        # did not parse has no verdict-token probability), so thresholds are fitted per source
        confidence_source=confidence_source,
        **fields,
    )
