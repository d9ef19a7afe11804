"""File hashes and the data manifest every artifact records.

``MANIFEST.json`` (written by ``reasonbench generate``) holds the resolved config, the generator
version, statistics and the sha256 of every generated file. Every downstream artifact (audit,
metrics, Judge Card, tables) records ``data_manifest_sha256``: the hash of the manifest's file
list, so any artifact can be traced to the exact bytes it was computed from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "MANIFEST",
    "STAT_LABELS",
    "DataIdentity",
    "data_identity",
    "file_hashes",
    "manifest_hash",
    "read_manifest",
    "sha256_file",
    "sha256_text",
    "stat_label",
]

MANIFEST = "MANIFEST.json"

# The keys of a manifest's ``stats`` (what code, MANIFEST.json and data/paper_figures.yaml use),
# and the label a reader sees in the dataset card and the statistics table: a reworded label
# changes no key. ``{strata}`` is the build's strata joined by " + " (:func:`stat_label`); each
# stratum's unit count ``<stratum>_<unit label>`` is not listed: it reads as its key with spaces
# ("organizational clauses"), so a new stratum needs no entry here.
STAT_LABELS = {
    "main_cases": "main cases (all splits)",
    "changed": "gold endpoint change",
    "stable": "stable",
    "ambiguous": "receipt-ambiguous",
    "receipt_sizes": "minimum receipt sizes present",
    "locked_examples": "locked test examples",
    "locked_units": "locked test units ({strata})",
    "controls": "controls",
    "receipt_size_distribution": "min receipt size distribution",
    "split_sizes": "split sizes",
}


def stat_label(key: str, strata: Sequence[str]) -> str:
    """What a reader sees for the stats key ``key`` of a build of ``strata`` (in its order)."""
    return STAT_LABELS.get(key, key.replace("_", " ")).format(strata=" + ".join(strata))


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_hashes(directory: Path, exclude: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """sha256 and size of every file under ``directory`` (posix relative paths, sorted), except
    the manifest itself and paths starting with one of ``exclude``."""
    out = {}
    for path in sorted(directory.rglob("*")):
        rel = path.relative_to(directory).as_posix()
        if path.is_file() and rel != MANIFEST and not any(rel.startswith(e) for e in exclude):
            out[rel] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    return out


def manifest_hash(data: Mapping[str, Any]) -> str:
    """The data manifest hash every downstream artifact records."""
    return hashlib.sha256(json.dumps(data["files"], sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class DataIdentity:
    """The data an artifact was computed from, as every artifact records it."""

    benchmark: str | None  # the generating config's name (None: the manifest names none)
    manifest_sha256: str  # :func:`manifest_hash`


def data_identity(manifest: Mapping[str, Any]) -> DataIdentity:
    """The benchmark name and the manifest hash of a manifest (:func:`read_manifest`'s)."""
    name = manifest.get("config", {}).get("name")
    return DataIdentity(None if name is None else str(name), manifest_hash(manifest))


def read_manifest(data_dir: Path, required: bool = False) -> dict[str, Any]:
    """``data_dir``'s manifest; ``{"files": {}}`` when absent, unless ``required``."""
    path = data_dir / MANIFEST
    if not path.is_file():
        if required:
            raise FileNotFoundError(f"{path} is missing: not a generated benchmark directory")
        return {"files": {}}
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a readable manifest ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise ValueError(f"{path}: not a reasonbench manifest (no 'files' table)")
    return data
