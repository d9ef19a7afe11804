"""Prediction records (docs/predictions.md) from generations, parsed by the frozen parsers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.predictions.answers import row_record
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import parse_target


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
    confidence = entry.get(confidence_source)
    answer = parse_target(target, entry["raw_output"], labels, GNA)
    return row_record(
        row,
        method,
        seed,
        target,
        entry["raw_output"],
        answer,
        confidence=None if confidence is None else float(confidence),
        # the source labels every record of the run, also those without a value (a verdict that
        # did not parse has no verdict-token probability), so thresholds are fitted per source
        confidence_source=confidence_source,
    )
