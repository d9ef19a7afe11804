"""How each file format is compared: one registered comparer per suffix (:data:`FORMATS`); a
suffix nobody registered is compared byte for byte.

JSON and JSON Lines are compared value by value, CSV and Parquet by their header (Parquet: column
names and types) and then cell by cell, text line by line (exactly), anything else byte for byte.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from typing import Any

from reasonbench.registry import Registry
from reasonbench.reports.compare.walk import ABSENT, Finding, Walk

__all__ = ["FORMATS", "Comparer", "compare_binary", "compare_text", "suffix_of"]


class _Unreadable(ValueError):
    """A file that is not valid in its format (on one side)."""


Comparer = Callable[[bytes, bytes, Walk], None]
FORMATS: Registry[Comparer] = Registry("compared file format")


def _load(kind: str, load: Callable[[bytes], Any], a: bytes, b: bytes, walk: Walk) -> Any:
    """Both sides loaded, or ``None`` after one finding that says which side is not valid."""
    loaded, bad = [], {}
    for side, data in (("left", a), ("right", b)):
        try:
            loaded.append(load(data))
        except _Unreadable as exc:
            bad[side] = f"not valid {kind} ({exc})"
    if not bad:
        return loaded
    fine = f"valid {kind}"
    walk.result.beyond.append(
        Finding(walk.where(""), bad.get("left", fine), bad.get("right", fine))
    )
    return None


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(f"not UTF-8 at byte {exc.start}") from None


def _json(data: bytes) -> Any:
    try:
        return json.loads(_text(data))
    except json.JSONDecodeError as exc:
        raise _Unreadable(f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def _jsonl(data: bytes) -> list[Any]:
    # records end at "\n" alone: a U+2028 inside a string is part of the record
    lines = _text(data).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for i, line in enumerate(lines):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise _Unreadable(f"line {i + 1}: {exc.msg}") from None
    return out


def _cell(text: str) -> Any:
    """A CSV cell as the number it writes, or as text (a count stays an integer: exact)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _csv(data: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    try:
        rows = list(csv.reader(io.StringIO(_text(data), newline="")))
    except csv.Error as exc:
        raise _Unreadable(str(exc)) from None
    if not rows:
        return [], []
    header, body = rows[0], rows[1:]
    out = []
    for i, row in enumerate(body):
        if len(row) != len(header):
            raise _Unreadable(f"row {i + 1} has {len(row)} cells, the header {len(header)}")
        out.append({name: _cell(cell) for name, cell in zip(header, row, strict=True)})
    return header, out


def _parquet(data: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
        raise _Unreadable(" ".join(str(exc).split())[:120]) from None
    # a column's type is part of what is compared: an int64 column that became double is a change
    return [f"{f.name}: {f.type}" for f in table.schema], table.to_pylist()


@FORMATS.register("json")
def compare_json(a: bytes, b: bytes, walk: Walk) -> None:
    loaded = _load("JSON", _json, a, b, walk)
    if loaded is not None:
        walk.values("", *loaded)


@FORMATS.register("jsonl")
def compare_jsonl(a: bytes, b: bytes, walk: Walk) -> None:
    loaded = _load("JSON Lines", _jsonl, a, b, walk)
    if loaded is not None:
        walk.values("", *loaded)


@FORMATS.register("csv")
def compare_csv(a: bytes, b: bytes, walk: Walk) -> None:
    loaded = _load("CSV", _csv, a, b, walk)
    if loaded is not None:
        walk.table(*loaded)


@FORMATS.register("parquet")
def compare_parquet(a: bytes, b: bytes, walk: Walk) -> None:
    loaded = _load("Parquet", _parquet, a, b, walk)
    if loaded is not None:
        walk.table(*loaded)


def compare_text(a: bytes, b: bytes, walk: Walk) -> None:
    """Exact, line by line: every differing line is named (a rounded table's row, say)."""
    loaded = _load("UTF-8 text", _text, a, b, walk)
    if loaded is None:
        return
    left, right = (text.split("\n") for text in loaded)
    if len(left) != len(right):
        first = next(
            (i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
            min(len(left), len(right)),
        )
        walk.differ("lines", f"{len(left)} lines", f"{len(right)} lines")
        walk.differ(f"line {first + 1}", _line(left, first), _line(right, first))
        return
    for i, (x, y) in enumerate(zip(left, right, strict=True)):
        if x != y:
            walk.differ(f"line {i + 1}", x, y)


def _line(lines: list[str], i: int) -> Any:
    return lines[i] if i < len(lines) else ABSENT


for _text_suffix in ("md", "tex", "txt", "html", "yaml", "yml", "log"):
    FORMATS.register(_text_suffix, compare_text)


def compare_binary(a: bytes, b: bytes, walk: Walk) -> None:
    """Byte for byte (a figure is plotted from values rounded to what the tables show, so its
    bytes are as stable as the tables')."""

    def digest(data: bytes) -> str:
        return f"{len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()[:12]}"

    walk.result.beyond.append(Finding(walk.where("bytes"), digest(a), digest(b)))


def suffix_of(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
