"""Write a built benchmark: Parquet per split, an HF DatasetDict, MANIFEST.json, a dataset card.

Everything is written into a temporary sibling directory and renamed into place at the end, so
an interrupted run leaves the previous data intact. File bytes depend only on the records (no
timestamps, fixed HF fingerprints), hence the manifest hashes are reproducible.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reasonbench.assembly.records import COLUMNS

GENERATOR_VERSION = "1"
_INT_COLUMNS = {"min_receipt_size", "proof_depth"}
_BOOL_COLUMNS = {"changed", "ambiguous"}
SCHEMA = pa.schema(
    [
        pa.field(
            c,
            pa.int64() if c in _INT_COLUMNS else pa.bool_() if c in _BOOL_COLUMNS else pa.string(),
        )
        for c in COLUMNS
    ]
)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def table_of(records: Sequence[Mapping[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in records], schema=SCHEMA)


def write_splits(directory: Path, splits: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """``<split>.parquet`` per split and ``hf/`` (``DatasetDict.save_to_disk``)."""
    import datasets  # heavy import, only needed when writing

    directory.mkdir(parents=True, exist_ok=True)
    tables = {}
    for name, records in splits.items():
        table = table_of(records)
        pq.write_table(table, directory / f"{name}.parquet", compression="zstd")
        tables[name] = table
    dataset_dict = datasets.DatasetDict(
        {
            # fixed fingerprints: the default ones are random and would break byte-identity
            name: datasets.Dataset(table, fingerprint=f"reasonbench-{name}-{GENERATOR_VERSION}")
            for name, table in tables.items()
        }
    )
    datasets.disable_progress_bars()
    dataset_dict.save_to_disk(str(directory / "hf"))


def file_hashes(directory: Path, exclude: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """sha256 and size of every file under ``directory`` (posix relative paths, sorted)."""
    out = {}
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if (
            path.is_file()
            and rel != "MANIFEST.json"
            and not any(rel.startswith(e) for e in exclude)
        ):
            out[rel] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    return out


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def manifest(
    directory: Path,
    config: Mapping[str, Any],
    stats: Mapping[str, Any],
    exclude: Sequence[str] = (),
) -> dict[str, Any]:
    return {
        "generator_version": GENERATOR_VERSION,
        "config": dict(config),
        "stats": dict(stats),
        "files": file_hashes(directory, exclude),
    }


def manifest_hash(data: Mapping[str, Any]) -> str:
    """The data manifest hash every downstream artifact records."""
    return hashlib.sha256(json.dumps(data["files"], sort_keys=True).encode()).hexdigest()


def replace_directory(staging: Path, target: Path) -> None:
    """Swap ``staging`` into ``target``; the old target survives until the new one is in place."""
    backup = target.with_name(target.name + ".previous")
    if backup.exists():
        shutil.rmtree(backup)
    if target.exists():
        os.replace(target, backup)
    os.replace(staging, target)
    if backup.exists():
        shutil.rmtree(backup)
