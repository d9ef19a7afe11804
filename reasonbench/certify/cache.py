"""The execution cache: what an adjudicator answered for a hybrid, keyed by (adjudicator, hybrid).

One file of JSONL lines stored by the project's answer cache (:class:`reasonbench.cache.
GenerationCache`: appended and flushed per execution, a partial last line left by a kill is
ignored and cut off before appending), so an interrupted run resumes and a rerun executes
nothing. Format 2, the first line a marker entry::

    {"format": 2, "key": "reasonbench_certify_cache"}
    {"key": "<sha256>/0", "verdict": "pass"}
    {"failure": {"detail": "...", "kind": "unparsable"}, "key": "<sha256>/1"}

``<sha256>`` is :func:`hybrid_key`, ``/<run>`` the run index of a repeat. Failures are cached only
when replayable (the answer itself was unreadable); transient ones are retried by a rerun. A file
of format 1 (header ``{"reasonbench_certify_cache": 1}``, lines ``{"key", "run", "verdict"}``) is
migrated in place on open — same keys, rewritten atomically. A file that is neither was not
written by ``certify`` and is never touched.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.cache import GenerationCache, read_entries
from reasonbench.certify.config import CertifyError
from reasonbench.core.canonical import canonical_json, json_utf8

__all__ = ["FORMAT", "MARKER", "ExecutionCache", "Outcome", "hybrid_key"]

FORMAT = 2
MARKER_KEY = "reasonbench_certify_cache"
MARKER: dict[str, Any] = {"format": FORMAT, "key": MARKER_KEY}
V1_HEADER = {"reasonbench_certify_cache": 1}

Outcome = str | tuple[str, str]  # a verdict, or a replayable failure (kind, detail)


def hybrid_key(adjudicator_id: str, hybrid: Mapping[str, Any]) -> str:
    """Content hash of one execution's inputs; object keys sorted, so source order is irrelevant
    (a lone surrogate in a value is hashed as its JSON escape: :func:`json_utf8`)."""
    payload = {"adjudicator": adjudicator_id, "hybrid": dict(hybrid)}
    return hashlib.sha256(json_utf8(canonical_json(payload))).hexdigest()


class _FileStore(GenerationCache):
    """The answer cache on one named file (``GenerationCache`` itself spreads a directory over
    one file per process; certify is one process, and the file is the ``cache`` key's path)."""

    def __init__(self, path: Path) -> None:
        self.file = path
        super().__init__(path.parent)
        self.path = path  # where put() appends

    def reload(self) -> None:
        self.entries = read_entries(self.file) if self.file.is_file() else {}


def _refuse(path: Path) -> CertifyError:
    return CertifyError(
        f"{path}: exists but is not a reasonbench certify cache; refusing to touch it "
        "(choose another cache path)"
    )


def _migrate_v1(path: Path, text: str) -> None:
    """Rewrite a format-1 file as format 2 (the same executions), atomically."""
    lines = text.split("\n")[1:]
    if not text.endswith("\n"):
        lines = lines[:-1]  # a write cut short by a kill
    out = [json.dumps(MARKER, sort_keys=True)]
    for number, line in enumerate(lines, start=2):
        if not line:
            continue
        try:
            entry = json.loads(line)
            key, run, verdict = str(entry["key"]), int(entry["run"]), str(entry["verdict"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise CertifyError(f"{path}:{number}: corrupt cache entry") from None
        out.append(json.dumps({"key": f"{key}/{run}", "verdict": verdict}, sort_keys=True))
    temporary = path.with_name(path.name + ".migrating")
    temporary.write_text("\n".join(out) + "\n", encoding="utf-8")
    os.replace(temporary, path)


class ExecutionCache:
    """Outcomes by (hybrid key, run); safe to share between the worker threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._store = self._open(path)

    @staticmethod
    def _open(path: Path) -> _FileStore:
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise CertifyError(f"{path}: cannot read the execution cache ({exc})") from None
            first, complete, _ = text.partition("\n")
            if not complete:  # nothing but a marker cut short by a kill: an empty cache
                if not json.dumps(MARKER, sort_keys=True).startswith(first):
                    raise _refuse(path)
            else:
                try:
                    header = json.loads(first)
                except json.JSONDecodeError:
                    raise _refuse(path) from None
                if header == V1_HEADER:
                    _migrate_v1(path, text)
                elif isinstance(header, dict) and header.get("key") == MARKER_KEY:
                    if header != MARKER:
                        raise CertifyError(
                            f"{path}: a reasonbench certify cache of format "
                            f"{header.get('format')!r}; this version reads format {FORMAT} "
                            "(and migrates format 1): choose another cache path"
                        )
                else:
                    raise _refuse(path)
        try:
            return _FileStore(path)
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
            raise CertifyError(f"{path}: corrupt cache entry (not JSON with a key)") from None

    def __len__(self) -> int:
        return max(0, len(self._store) - 1)  # the marker is not an execution

    def get(self, key: str, run: int) -> Outcome | None:
        entry = self._store.entries.get(f"{key}/{run}")
        if entry is None:
            return None
        if "failure" in entry:
            failure = entry["failure"]
            return str(failure["kind"]), str(failure["detail"])
        return str(entry["verdict"])

    def put(self, key: str, run: int, outcome: Outcome) -> None:
        entry: dict[str, Any] = {"key": f"{key}/{run}"}
        if isinstance(outcome, str):
            entry["verdict"] = outcome
        else:
            entry["failure"] = {"kind": outcome[0], "detail": outcome[1]}
        with self._lock:
            if MARKER_KEY not in self._store:
                self._store.put([dict(MARKER)])  # a fresh (or killed-before-the-marker) file
            self._store.put([entry])

    def close(self) -> None:
        with self._lock:
            self._store.close()
