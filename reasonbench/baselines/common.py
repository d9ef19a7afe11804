"""Shared pieces of the surface baselines: benchmark rows in, prediction records out."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.io import read_splits
from reasonbench.predictions.record import PredictionRecord

# A baseline predicts the direct_receipt fields (endpoints and receipt family), one classifier each.
TARGET = "direct_receipt"
# The columns of a row a baseline kind gets (``receipt``: the gold receipt family as JSON text).
COLUMNS = ["id", "split", "stratum", "prompt", "old_verdict", "new_verdict", "receipt"]
Row = dict[str, Any]
# The receipt family of a stable case (the endpoints equal), as ``field_record`` takes it.
STABLE_RECEIPT = "[]"


def load_rows(data_dir: Path, with_cardinality: bool = True) -> dict[str, list[Row]]:
    """split name → rows (main splits, controls and, if present, the cardinality splits)."""
    return read_splits(data_dir, COLUMNS, with_cardinality)


def field_record(
    row: Mapping[str, Any],
    method: str,
    split: str,
    fields: Mapping[str, str],
    confidence: float,
    source: str,
) -> PredictionRecord:
    """A baseline's prediction record from its per-field outputs (``old``, ``new``, and the receipt
    family as JSON text in ``receipt``); deterministic baselines use seed 0."""
    return PredictionRecord(
        example_id=row["id"],
        method=method,
        seed=0,
        split=split,
        target=TARGET,
        raw_output=json.dumps(dict(fields), sort_keys=True),
        parse_ok=True,
        pred_old_verdict=fields["old"],
        pred_new_verdict=fields["new"],
        pred_receipt=fields["receipt"],
        pred_cube=None,
        confidence=round(float(confidence), 6),
        confidence_source=source,
        verdict_source=method,
    )


def iter_splits(rows: Mapping[str, Sequence[Row]]) -> Iterator[tuple[str, Sequence[Row]]]:
    """(split, its rows) in a fixed order: every split a kind must answer."""
    for split in sorted(rows):
        yield split, rows[split]
