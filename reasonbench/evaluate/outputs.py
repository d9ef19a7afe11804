"""Where ``reasonbench evaluate`` reads and writes, and what it refuses to touch.

Reads: the benchmark rows (id, split, stratum, prompt) of the asked splits. Writes, under
``out_dir`` (``results/predictions/<judge name>`` by default): ``seed<k>.jsonl`` per run, in
benchmark order, each written to a temporary file and renamed into place (a rerun from the cache
writes identical bytes), and ``evaluate.json`` (the run's record, also the mark that this command
owns the directory). It never overwrites prediction files it did not write: a directory with
``seed*.jsonl`` but no ``evaluate.json`` is refused, and so is a judge name that another file
under ``predictions_dir`` already uses as its ``method`` (``analyze`` would see duplicates).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reasonbench.predictions.io import JsonlWriter
from reasonbench.predictions.record import PredictionRecord

__all__ = ["MARK", "EvaluateError", "check_ownership", "read_rows", "write_json", "write_records"]

MARK = "evaluate.json"
ROW_COLUMNS = ["id", "split", "stratum", "prompt"]


class EvaluateError(ValueError):
    """An evaluation that cannot start or must not write; the message names the place."""


def read_rows(data_dir: Path, splits: Sequence[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """(rows in split order, skipped splits): a ``cardinality*`` split of a benchmark generated
    without the cardinality experiment is skipped, as ``reasonbench predict`` does."""
    rows: list[dict[str, Any]] = []
    skipped: list[str] = []
    if not (data_dir / "MANIFEST.json").is_file():
        raise EvaluateError(f"no benchmark at {data_dir} (run 'reasonbench generate' first)")
    for split in splits:
        path = next(
            (p for p in (data_dir / f"{split}.parquet", data_dir / "cardinality" / f"{split}.parquet")
             if p.is_file()),
            None,
        )  # fmt: skip
        if path is None:
            if split.startswith("cardinality"):
                skipped.append(split)
                continue
            known = sorted(p.stem for p in data_dir.glob("*.parquet"))
            raise EvaluateError(f"split {split!r} not found under {data_dir}; splits: {known}")
        rows += pq.read_table(path, columns=ROW_COLUMNS).to_pylist()
    if not rows:
        raise EvaluateError(f"no examples in splits {list(splits)} under {data_dir}")
    return rows, skipped


def _first_method(path: Path) -> str | None:
    try:
        if path.suffix == ".parquet":
            table = pq.read_table(path, columns=["method"])
            return str(table.column(0)[0]) if table.num_rows else None
        with path.open(encoding="utf-8") as handle:
            line = handle.readline()
        return str(json.loads(line)["method"]) if line.strip() else None
    except (OSError, ValueError, KeyError, TypeError):
        return None  # not a prediction file this check can read: analyze will say more


def check_ownership(out_dir: Path, predictions_dir: Path, method: str) -> None:
    """Refuse to write where another command's predictions are (see the module docstring).
    Each prediction file holds one method here, so its first record names it."""
    ours = sorted(out_dir.glob("seed*.jsonl")) if out_dir.is_dir() else []
    if ours and not (out_dir / MARK).is_file():
        raise EvaluateError(
            f"{out_dir} holds prediction files that reasonbench evaluate did not write "
            f"({ours[0].name}, no {MARK}); set out_dir or judge.name"
        )
    if not predictions_dir.is_dir():
        return
    for path in sorted([*predictions_dir.rglob("*.jsonl"), *predictions_dir.rglob("*.parquet")]):
        if out_dir.resolve() in path.resolve().parents:
            continue
        if _first_method(path) == method:
            raise EvaluateError(
                f"method {method!r} already has predictions in {path}; analyze would count it "
                "twice: set judge.name to another name"
            )


def write_records(path: Path, records: Iterable[PredictionRecord]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    with JsonlWriter(tmp) as writer:
        for record in records:
            writer.write(record)
    tmp.replace(path)


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
