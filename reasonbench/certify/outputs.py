"""Writing the run's files: atomically, and never over a file this command did not write.

``out_dir/certify-outputs.json`` records the sha256 of every file a run wrote. Before writing,
each target must be absent, or be listed there with its recorded hash (a file the user created or
edited since is left alone, and the run stops with one line saying so). Each file is written to a
temporary name in the same directory and renamed into place; the record is written last.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from reasonbench.certify.config import CertifyError

__all__ = ["RECORD", "OutputError", "check_outputs", "write_outputs"]

RECORD = "certify-outputs.json"
WRITER = "reasonbench certify"


class OutputError(CertifyError):
    """An output path this run must not or cannot write."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record(out_dir: Path) -> dict[str, str]:
    path = out_dir / RECORD
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or data.get("written_by") != WRITER:
        raise OutputError(f"{path}: exists but was not written by {WRITER}; refusing to touch it")
    files = data.get("files")
    return dict(files) if isinstance(files, dict) else {}


def check_outputs(out_dir: Path, names: list[str]) -> None:
    """Raise :class:`OutputError` unless every ``out_dir/name`` may be (over)written by us."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"out_dir {out_dir} exists and is not a directory")
    owned = _record(out_dir)
    for name in names:
        path = out_dir / name
        if not path.exists():
            continue
        if not path.is_file():
            raise OutputError(f"{path}: exists and is not a file; refusing to replace it")
        if owned.get(name) != _sha256(path.read_bytes()):
            raise OutputError(
                f"{path}: exists and was not written by {WRITER} (or was changed since); "
                "move it away or choose another out_dir"
            )


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with tmp.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def write_outputs(out_dir: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` (name -> text) into ``out_dir`` after :func:`check_outputs` agrees."""
    check_outputs(out_dir, list(files))
    out_dir.mkdir(parents=True, exist_ok=True)
    owned = _record(out_dir)
    for name, text in files.items():
        data = text.encode("utf-8")
        _atomic_write(out_dir / name, data)
        owned[name] = _sha256(data)
    record = {"written_by": WRITER, "files": dict(sorted(owned.items()))}
    _atomic_write(out_dir / RECORD, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
