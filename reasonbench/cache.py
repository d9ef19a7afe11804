"""The answer cache: what a model emitted for an input, keyed by everything that decides it.

One helper serves every model caller — ``reasonbench predict`` (:mod:`reasonbench.infer.cache`
builds its keys) and the served-model client (:mod:`reasonbench.serve`). A key is the sha256 of
a canonical JSON payload (:func:`content_key`). Entries are JSONL lines, appended and flushed as
soon as they exist, one file per process (so ``accelerate`` ranks never interleave writes). A
kill leaves complete lines and at most one partial last line, which is ignored on load: an
interrupted run resumes where it stopped, a rerun recomputes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from reasonbench.io.manifest import sha256_text

__all__ = ["GenerationCache", "content_key", "read_entries", "sha256_text"]


def content_key(payload: Mapping[str, Any]) -> str:
    """sha256 of ``payload`` as canonical JSON (sorted keys): equal payloads, equal keys."""
    return sha256_text(json.dumps(dict(payload), sort_keys=True))


def read_entries(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    # a last line without end of line is a write cut short by a kill: recompute it
    for line in lines[:-1] if not text.endswith("\n") else lines:
        if line:
            entry = json.loads(line)
            out[entry["key"]] = entry
    return out


class GenerationCache:
    """All entries under ``directory``; new entries go to this process's own file."""

    def __init__(self, directory: Path, rank: int = 0) -> None:
        self.directory = directory
        self.path = directory / f"rank-{rank}.jsonl"
        self.entries: dict[str, dict[str, Any]] = {}
        self._handle: IO[str] | None = None
        self.reload()

    def reload(self) -> None:
        self.entries = {}
        if self.directory.is_dir():
            for path in sorted(self.directory.glob("rank-*.jsonl")):
                self.entries.update(read_entries(path))

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: str) -> dict[str, Any]:
        return self.entries[key]

    def put(self, entries: list[dict[str, Any]]) -> None:
        if self._handle is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._repair()
            self._handle = self.path.open("a", encoding="utf-8")
        for entry in entries:
            self._handle.write(json.dumps(entry, sort_keys=True) + "\n")
            self.entries[entry["key"]] = entry
        self._handle.flush()

    def _repair(self) -> None:
        """Drop a partial last line left by a kill, so appended lines stay well-formed."""
        if self.path.is_file():
            text = self.path.read_text(encoding="utf-8")
            if text and not text.endswith("\n"):
                self.path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
