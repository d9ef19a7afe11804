"""Where ``reasonbench evaluate`` reads and writes, and what it refuses to touch.

Reads: the benchmark rows (id, split, stratum, prompt) of the asked splits, through the one split
reader. Writes, through the one output layer (:class:`reasonbench.io.OutputDir`, whose ledger
lets it replace only files it wrote and nobody changed since), under ``out_dir``
(``results/predictions/<judge name>`` by default): ``seed<k>.jsonl`` per run, in benchmark order,
each renamed into place whole (a rerun from the cache writes identical bytes); ``evaluate.json``,
the run's record; ``usage.json`` for a served judge. Every file is checked before the first
question is asked, so a refusal costs no request. A judge name that another prediction file
under ``predictions_dir`` already uses as its ``method`` is refused too: ``analyze`` would count
that method twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reasonbench.io import SplitError, read_split

__all__ = ["EvaluateError", "check_method_unique", "read_rows"]

ROW_COLUMNS = ["id", "split", "stratum", "prompt"]


class EvaluateError(ValueError):
    """An evaluation that cannot start or must not write; the message names the place."""


def read_rows(data_dir: Path, splits: Sequence[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """(rows in split order, skipped splits): a ``cardinality*`` split of a benchmark generated
    without the cardinality experiment is skipped, as ``reasonbench predict`` does."""
    rows: list[dict[str, Any]] = []
    skipped: list[str] = []
    for split in splits:
        try:
            rows += read_split(data_dir, split, ROW_COLUMNS)
        except SplitError:
            if not split.startswith("cardinality") or not data_dir.is_dir():
                raise
            skipped.append(split)
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


def check_method_unique(
    out_dir: Path,
    predictions_dir: Path,
    method: str,
    rename: str = "set judge.name to another name",
) -> None:
    """No prediction file outside ``out_dir`` holds ``method``. Each prediction file holds one
    method in this project (predict, baselines and evaluate write one each), so its first record
    names it. ``rename`` is the way out the refusal names (the calling command's key)."""
    if not predictions_dir.is_dir():
        return
    ours = out_dir.resolve()
    for path in sorted([*predictions_dir.rglob("*.jsonl"), *predictions_dir.rglob("*.parquet")]):
        if ours in path.resolve().parents:
            continue
        if _first_method(path) == method:
            raise EvaluateError(
                f"method {method!r} already has predictions in {path}; analyze would count it "
                f"twice: {rename}"
            )
