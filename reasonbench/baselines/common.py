"""Shared pieces of the surface baselines: benchmark rows in, prediction records out."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

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


def iter_splits(rows: Mapping[str, Sequence[Row]]) -> Iterator[tuple[str, Sequence[Row]]]:
    for split in sorted(rows):
        yield split, rows[split]
