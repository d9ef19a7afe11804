"""Reading a generated benchmark's splits: the one reader every consumer uses.

A benchmark directory holds ``<split>.parquet`` per main split (and ``controls_locked``) and, when
generated with the cardinality experiment, ``cardinality/<split>.parquet``. A missing benchmark or
split is a :class:`SplitError` (a ``FileNotFoundError``) whose message says what to run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = [
    "CARDINALITY_DIR",
    "SplitError",
    "read_split",
    "read_splits",
    "split_columns",
    "split_names",
    "split_path",
]

CARDINALITY_DIR = "cardinality"
Row = dict[str, Any]


class SplitError(FileNotFoundError):
    """A benchmark directory or split that is not there (or not readable); names it."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _benchmark_dir(data_dir: Path) -> Path:
    if not data_dir.is_dir():
        raise SplitError(
            f"no benchmark at {data_dir}: run 'reasonbench generate' first (or set data_dir=...)"
        )
    return data_dir


def split_names(data_dir: Path, with_cardinality: bool = True) -> list[str]:
    """Every split present, main splits first (sorted), then the cardinality splits."""
    base = _benchmark_dir(data_dir)
    names = [p.stem for p in sorted(base.glob("*.parquet"))]
    if with_cardinality:
        names += [p.stem for p in sorted((base / CARDINALITY_DIR).glob("*.parquet"))]
    return names


def split_path(data_dir: Path, split: str) -> Path:
    base = _benchmark_dir(data_dir)
    for path in (base / f"{split}.parquet", base / CARDINALITY_DIR / f"{split}.parquet"):
        if path.is_file():
            return path
    present = ", ".join(split_names(data_dir)) or "none"
    hint = " (cardinality splits need generate cardinality=true)" if "cardinality" in split else ""
    raise SplitError(f"split {split!r} not found under {data_dir} (present: {present}){hint}")


def split_columns(data_dir: Path, split: str) -> list[str]:
    """The column names stored in a split's file (read from its schema, not its rows)."""
    path = split_path(data_dir, split)
    try:
        return list(pq.read_schema(path).names)
    except (pa.ArrowException, OSError) as exc:
        raise SplitError(f"{path}: unreadable split file ({exc})") from None


def read_split(data_dir: Path, split: str, columns: Sequence[str] | None = None) -> list[Row]:
    """The rows of one split (only ``columns`` when given)."""
    path = split_path(data_dir, split)
    try:
        table = pq.read_table(path, columns=None if columns is None else list(columns))
    except (pa.ArrowException, OSError) as exc:
        raise SplitError(f"{path}: unreadable split file ({exc})") from None
    rows: list[Row] = table.to_pylist()
    return rows


def read_splits(
    data_dir: Path,
    columns: Sequence[str] | None = None,
    with_cardinality: bool = True,
    splits: Sequence[str] | None = None,
) -> dict[str, list[Row]]:
    """split name -> rows, for every split present (or only ``splits``, which must exist)."""
    names = list(splits) if splits is not None else split_names(data_dir, with_cardinality)
    return {name: read_split(data_dir, name, columns) for name in names}
