"""The execution cache: every verdict an adjudicator returned, keyed by (adjudicator, hybrid).

A JSONL file whose first line is :data:`HEADER`, then one flushed line per execution,
``{"key": sha256, "run": i, "verdict": label}`` (``run`` numbers the repeats of one hybrid). A kill
leaves at most one partial last line, which is cut off before appending again, so an interrupted
run resumes and a rerun executes nothing. Failures are not cached: a rerun retries them. A file
without the header was not written by ``certify`` and is never touched.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from reasonbench.certify.config import CertifyError

__all__ = ["HEADER", "ExecutionCache", "hybrid_key"]

HEADER = {"reasonbench_certify_cache": 1}


def hybrid_key(adjudicator_id: str, hybrid: Mapping[str, Any]) -> str:
    """Content hash of one execution's inputs; object keys sorted, so source order is irrelevant."""
    payload = {"adjudicator": adjudicator_id, "hybrid": dict(hybrid)}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ExecutionCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._verdicts: dict[tuple[str, int], str] = {}
        self._lock = threading.Lock()
        self._handle: IO[str] | None = None
        if path.exists():
            self._load()

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CertifyError(f"{self.path}: cannot read the execution cache ({exc})") from None
        if not text:
            return  # created, then killed before the header: nothing to lose
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        elif lines:
            lines.pop()  # a last line without end of line: a write cut short by a kill
        try:
            header = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            header = None
        if header != HEADER:
            raise CertifyError(
                f"{self.path}: exists but is not a reasonbench certify cache; refusing to touch "
                "it (choose another cache path)"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
                self._verdicts[(entry["key"], int(entry["run"]))] = str(entry["verdict"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise CertifyError(f"{self.path}:{number}: corrupt cache entry") from None

    def __len__(self) -> int:
        return len(self._verdicts)

    def get(self, key: str, run: int) -> str | None:
        return self._verdicts.get((key, run))

    def put(self, key: str, run: int, verdict: str) -> None:
        with self._lock:
            handle = self._open()
            handle.write(json.dumps({"key": key, "run": run, "verdict": verdict}) + "\n")
            handle.flush()
            self._verdicts[(key, run)] = verdict

    def _open(self) -> IO[str]:
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            if not fresh:
                self._cut_partial_line()
            self._handle = self.path.open("a", encoding="utf-8")
            if fresh:
                self._handle.write(json.dumps(HEADER) + "\n")
        return self._handle

    def _cut_partial_line(self) -> None:
        with self.path.open("rb+") as raw:
            data = raw.read()
            if data and not data.endswith(b"\n"):
                raw.truncate(data.rfind(b"\n") + 1)
                os.fsync(raw.fileno())

    def close(self) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None
