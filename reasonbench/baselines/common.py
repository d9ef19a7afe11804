"""Shared pieces of the surface baselines: benchmark rows in, prediction records out."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets.serialize import NO_RECEIPT

COLUMNS = ["id", "split", "stratum", "prompt", "old_verdict", "new_verdict", "receipt"]
Row = dict[str, Any]


def load_rows(data_dir: Path, with_cardinality: bool = True) -> dict[str, list[Row]]:
    """split name → rows (main splits, controls and, if present, the cardinality splits)."""
    if not data_dir.is_dir():
        raise FileNotFoundError(f"no benchmark at {data_dir}: run 'reasonbench generate' first")
    paths = sorted(data_dir.glob("*.parquet"))
    if with_cardinality:
        paths += sorted((data_dir / "cardinality").glob("*.parquet"))
    return {p.stem: pq.read_table(p, columns=COLUMNS).to_pylist() for p in paths}


def label_of(row: Mapping[str, Any]) -> str:
    """One class label for the whole transition: endpoints and receipt family."""
    family = json.loads(row["receipt"])
    receipt = " | ".join("+".join(s) for s in family) or NO_RECEIPT
    return f"{row['old_verdict']}>{row['new_verdict']}>{receipt}"


def unpack(label: str) -> tuple[str, str, list[list[str]]]:
    old, new, receipt = label.split(">")
    family = [] if receipt == NO_RECEIPT else [s.split("+") for s in receipt.split(" | ")]
    return old, new, family


def record_for(
    row: Mapping[str, Any], method: str, label: str, confidence: float, source: str, split: str
) -> PredictionRecord:
    old, new, family = unpack(label)
    return PredictionRecord(
        example_id=row["id"],
        method=method,
        seed=0,
        split=split,
        raw_output=label,
        parse_ok=True,
        pred_old_verdict=old,
        pred_new_verdict=new,
        pred_receipt=json.dumps(family),
        pred_cube=None,
        confidence=round(float(confidence), 6),
        confidence_source=source,
        verdict_source=method,
    )


def iter_splits(rows: Mapping[str, Sequence[Row]]) -> Iterator[tuple[str, Sequence[Row]]]:
    for split in sorted(rows):
        yield split, rows[split]
