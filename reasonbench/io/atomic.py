"""Atomic writes: every file reasonbench writes appears whole or not at all.

A writer writes a temporary sibling (same directory, so the final ``os.replace`` is an atomic
rename on one file system) and renames it into place; on any error — a full disk, ``ulimit -f``,
Ctrl-C — the temporary file is removed and the previous file is untouched. Files are created with
``open`` (mode 0666 minus the umask), never ``mkstemp`` (0600), so outputs follow the user's umask.

JSON is written one way everywhere: keys sorted, two-space indent, ASCII escapes, final newline.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "atomic_path",
    "live_temporaries",
    "scratch",
    "dumps_json",
    "parquet_bytes",
    "write_bytes",
    "write_json",
    "write_parquet",
    "write_text",
]


def _temporary(path: Path) -> Path:
    # hidden and unique: two processes (or a killed earlier run) never collide, and a directory
    # listing of the outputs does not show half-written files as results
    return path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")


# files being written right now: what a process that must end at once (a second Ctrl-C, or one
# still running a second after the first: reasonbench/cli/interrupt.py) removes before it goes
_LIVE: set[Path] = set()


def live_temporaries() -> list[Path]:
    """The temporary files this process is writing now."""
    return sorted(_LIVE)


@contextlib.contextmanager
def scratch(path: Path) -> Iterator[Path]:
    """``path`` is a file of this block's own (a temporary, or a partial output): removed when
    the block ends, however it ends, and by an interrupted process that cannot unwind."""
    _LIVE.add(path)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
        _LIVE.discard(path)


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to (for writers that take a path, such as
    ``pyarrow.parquet.write_table`` or ``matplotlib``'s ``savefig``); renamed to ``path`` when the
    block succeeds, removed when it fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with scratch(_temporary(path)) as tmp:
        yield tmp
        os.replace(tmp, path)


def write_bytes(path: Path, data: bytes) -> None:
    # "xb": the temporary name is new; creating it fails rather than truncate anything
    with atomic_path(path) as tmp, tmp.open("xb") as handle:
        handle.write(data)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def dumps_json(value: Any) -> str:
    """The project's one JSON format (sorted keys, indent 2, final newline)."""
    return json.dumps(value, indent=2, sort_keys=True) + "\n"


def write_json(path: Path, value: Any) -> None:
    write_text(path, dumps_json(value))


def parquet_bytes(table: Any) -> bytes:
    """A pyarrow table as Parquet file bytes (no timestamps: the bytes depend on the data)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    data: bytes = sink.getvalue().to_pybytes()
    return data


def write_parquet(path: Path, table: Any) -> None:
    write_bytes(path, parquet_bytes(table))
