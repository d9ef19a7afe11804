"""Outputs a command may replace: only what reasonbench itself wrote.

Two kinds of output:

* **A directory built whole** (``reasonbench generate``): it is built in a staging sibling and
  swapped in by :func:`replace_directory`. An existing target is replaced only when it is empty
  or carries the command's marker (a benchmark's ``MANIFEST.json``); anything else is refused
  unless the user passes ``overwrite=true``. The previous build is kept as a uniquely named backup
  until the new one is in place, then removed — it was ours; no other name is ever deleted.
* **Files written into a directory** (tables, figures, metrics, audit reports, Judge Cards,
  prediction files): an :class:`OutputDir` keeps a ledger, ``.reasonbench-outputs.json``, of every
  file it wrote with its sha256. An existing file is replaced only if the ledger lists it with
  the same content (so a file the user wrote, or edited since, is never overwritten), unless
  ``overwrite=true``. Files the command does not write are never touched.

Every refusal is an :class:`OutputError` whose message names the path and the way out.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from reasonbench.io.atomic import atomic_path, dumps_json, write_text
from reasonbench.io.manifest import sha256_file

__all__ = [
    "LEDGER",
    "OutputDir",
    "OutputError",
    "check_no_file_in_the_way",
    "claim_directory",
    "ensure_directory",
    "replace_directory",
]

LEDGER = ".reasonbench-outputs.json"


class OutputError(Exception):
    """An output path reasonbench refuses to write; the message names it and the way out."""


def check_no_file_in_the_way(path: Path) -> None:
    """``OutputError`` when the nearest existing ancestor of ``path`` (or ``path``) is a file."""
    for ancestor in (path, *path.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                raise OutputError(f"{ancestor} is a file, not a directory; choose another path")
            return


def ensure_directory(directory: Path) -> list[Path]:
    """Create ``directory`` and its parents; a failure is one clear line naming the culprit.
    Returns the directories it created, deepest first."""
    check_no_file_in_the_way(directory)
    missing = [d for d in (directory, *directory.parents) if not d.exists()]
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create directory {directory}: {exc.strerror}") from None
    return missing


def replace_directory(
    staging: Path, target: Path, ours: Callable[[Path], bool], what: str, overwrite: bool
) -> None:
    """Swap ``staging`` into ``target``. ``ours(target)`` says whether an existing target is this
    command's own output; ``what`` names the marker in the refusal ("a benchmark build (no
    MANIFEST.json)")."""
    check_no_file_in_the_way(target)
    existing = target.is_dir() and any(target.iterdir())
    if existing and not (ours(target) or overwrite):
        raise OutputError(
            f"{target} exists and is not {what}; it is left untouched: choose another path, "
            "or pass overwrite=true to replace it"
        )
    backup = target.with_name(f".{target.name}.previous-{uuid.uuid4().hex[:8]}")
    if target.exists():
        os.replace(target, backup)  # the old build survives until the new one is in place
    try:
        os.replace(staging, target)
    except BaseException:
        if backup.exists():
            os.replace(backup, target)
        raise
    if backup.exists():
        shutil.rmtree(backup)  # our own backup (a unique name nobody else uses)


def claim_directory(directory: Path, markers: tuple[str, ...], what: str, overwrite: bool) -> None:
    """Refuse to write into an existing, non-empty ``directory`` that holds none of ``markers``
    (this command's own files), unless ``overwrite``; create it otherwise."""
    check_no_file_in_the_way(directory)
    foreign = not any((directory / m).exists() for m in markers)
    if directory.is_dir() and any(directory.iterdir()) and foreign and not overwrite:
        raise OutputError(
            f"{directory} exists and is not {what}; it is left untouched: choose another "
            "path, or pass overwrite=true to write into it"
        )
    ensure_directory(directory)


class OutputDir:
    """Files one command writes under ``root``, each replaced only if reasonbench wrote it."""

    def __init__(self, root: Path, command: str, overwrite: bool = False) -> None:
        self.root, self.command, self.overwrite = root, command, overwrite
        check_no_file_in_the_way(root)
        self._ledger = self._read_ledger()
        self._written: dict[str, str] = {}
        self._created: list[Path] = []  # directories this command made, deepest first

    def _read_ledger(self) -> dict[str, dict[str, Any]]:
        path = self.root / LEDGER
        if not path.is_file():
            return {}
        try:
            files = json.loads(path.read_text(encoding="utf-8"))["files"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}  # an unreadable ledger vouches for nothing: every file counts as foreign
        return dict(files) if isinstance(files, dict) else {}

    def path(self, rel: str) -> Path:
        return self.root / rel

    def check(self, rel: str) -> Path:
        """The path of ``rel``, after checking it may be written; ``OutputError`` if not."""
        path = self.root / rel
        if path.is_dir():
            raise OutputError(
                f"{path} is a directory; reasonbench {self.command} writes a file there"
            )
        if path.exists() and not self.overwrite:
            entry = self._ledger.get(rel)
            if entry is None:
                raise OutputError(
                    f"{path} exists and was not written by reasonbench; it is left untouched: "
                    "choose another output directory, or pass overwrite=true to replace it"
                )
            if entry.get("sha256") != sha256_file(path):
                raise OutputError(
                    f"{path} was changed since reasonbench wrote it; it is left untouched: "
                    "choose another output directory, or pass overwrite=true to replace it"
                )
        self._created = ensure_directory(path.parent) + self._created
        return path

    @contextlib.contextmanager
    def writing(self, rel: str) -> Iterator[Path]:
        """A temporary path for ``rel`` (for writers that take a path); renamed into place and
        recorded in the ledger when the block succeeds."""
        path = self.check(rel)
        with atomic_path(path) as tmp:
            yield tmp
        self._written[rel] = sha256_file(path)

    def write_text(self, rel: str, text: str) -> Path:
        with self.writing(rel) as tmp, tmp.open("x", encoding="utf-8") as handle:
            handle.write(text)
        return self.root / rel

    def write_bytes(self, rel: str, data: bytes) -> Path:
        with self.writing(rel) as tmp, tmp.open("xb") as handle:
            handle.write(data)
        return self.root / rel

    def write_json(self, rel: str, value: Any) -> Path:
        return self.write_text(rel, dumps_json(value))

    def commit(self) -> None:
        """Record what was written (merged with earlier commands' entries) in the ledger."""
        if not self._written:
            return
        files = dict(self._ledger)
        for rel, digest in self._written.items():
            files[rel] = {"sha256": digest, "command": self.command}
        note = "files reasonbench wrote here; it replaces only these, and only while unchanged"
        write_text(self.root / LEDGER, dumps_json({"note": note, "files": files}))
        self._ledger, self._written = files, {}

    def __enter__(self) -> OutputDir:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.commit()  # also after a failure: what was written is ours and may be replaced later
        if kind is not None:
            self._remove_empty_created()

    def _remove_empty_created(self) -> None:
        """After a failure, the directories this command created and left empty go again (a
        stopped run leaves no empty output folder); anything holding a file stays."""
        for directory in self._created:
            with contextlib.suppress(OSError):  # not empty, or gone: leave it
                directory.rmdir()
        self._created = []
