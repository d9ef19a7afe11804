"""Write a built benchmark: Parquet per split, an HF DatasetDict, MANIFEST.json, a dataset card.

Everything is written into a staging sibling directory and swapped into place at the end
(:func:`reasonbench.io.replace_directory`), so an interrupted run leaves the previous data
intact. File bytes depend only on the records (no timestamps, fixed HF fingerprints), hence the
manifest hashes are reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reasonbench.assembly.records import COLUMNS
from reasonbench.io import file_hashes

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


def table_of(records: Sequence[Mapping[str, Any]]) -> pa.Table:
    # column by column: building a dict per row for ``from_pylist`` showed in the serial write
    return pa.Table.from_pydict({c: [r[c] for r in records] for c in COLUMNS}, schema=SCHEMA)


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


def manifest(
    directory: Path,
    config: Mapping[str, Any],
    stats: Mapping[str, Any],
    exclude: Sequence[str] = (),
    plugins: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The manifest of ``directory``. ``plugins``: the plug-ins the build loaded
    (:func:`reasonbench.plugins.loaded_plugins`), recorded only when there are any, so that a
    build without plug-ins keeps its frozen bytes (``data/manifests/``)."""
    out: dict[str, Any] = {
        "generator_version": GENERATOR_VERSION,
        "config": dict(config),
        "stats": dict(stats),
        "files": file_hashes(directory, exclude),
    }
    if plugins:
        out["plugins"] = [dict(p) for p in plugins]
    return out
