"""Prediction records (docs/predictions.md) from generations, parsed by the frozen parsers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.predictions.fields import predicted_fields
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets.parse import Parsed, parse_target


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
    fields = predicted_fields(result)
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
