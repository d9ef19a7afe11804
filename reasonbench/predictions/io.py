"""Reading and writing prediction files (JSONL, appended incrementally; or Parquet).

A JSONL file is written one flushed line per record, so an interrupted run leaves complete lines
plus at most one partial line; ``read_predictions`` rejects such a truncated file with the file
and line number instead of silently dropping the tail.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import pyarrow as pa
import pyarrow.parquet as pq

from reasonbench import io
from reasonbench.predictions.record import PredictionRecord, RecordError


class PredictionFileError(ValueError):
    """A prediction file that cannot be trusted; the message names file and line."""


class JsonlWriter:
    """Append records to a JSONL file, one flushed line each (resumable)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._handle: IO[str] = path.open("a", encoding="utf-8")

    def write(self, record: PredictionRecord) -> None:
        record.validate()
        self._handle.write(json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def records_table(records: Iterable[PredictionRecord]) -> pa.Table:
    return pa.Table.from_pylist([r.to_json() for r in records])


def write_parquet(path: Path, records: Iterable[PredictionRecord]) -> None:
    """Prediction records as one Parquet file, written atomically."""
    io.write_parquet(path, records_table(records))


def read_predictions(path: Path) -> list[PredictionRecord]:
    if path.suffix == ".parquet":
        try:
            rows = pq.read_table(path).to_pylist()
        except (pa.ArrowException, OSError) as exc:
            raise PredictionFileError(
                f"{path}: unreadable or truncated Parquet file ({exc})"
            ) from None
        return [_record(row, path, i + 1) for i, row in enumerate(rows)]
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        last = text.count("\n") + 1
        raise PredictionFileError(f"{path}: truncated file (line {last} has no end of line)")
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PredictionFileError(f"{path}:{number}: not a JSON object ({exc.msg})") from None
        out.append(_record(data, path, number))
    return out


def _record(data: object, path: Path, number: int) -> PredictionRecord:
    if not isinstance(data, dict):
        raise PredictionFileError(f"{path}:{number}: a record must be a JSON object")
    try:
        return PredictionRecord.from_json(data)
    except (RecordError, TypeError) as exc:
        raise PredictionFileError(f"{path}:{number}: {exc}") from None
