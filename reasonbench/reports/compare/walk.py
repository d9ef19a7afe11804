"""``reasonbench compare``: two results — two metrics files or two results directories — within a
tolerance.

Why a tolerance: the benchmark and every output computed from it by integer or exact arithmetic
are byte-identical on any machine, but learned weights and fitted floats (the TF-IDF baseline's
SGD through BLAS, the Platt fit, the tiny model's fp32 kernels) differ across CPUs in their last
digits (docs/analysis.md §10). The rule for every number (a JSON number, a JSONL field, a CSV or
Parquet cell): two floats agree when ``|a − b| <= max(rtol · max(|a|, |b|), atol)``
(:func:`math.isclose`, symmetric; NaN agrees with NaN); two integers only when equal. Everything
else — strings, booleans, nulls, keys, columns, row counts, Markdown/LaTeX/text files — must be
equal, and a binary file (a PNG figure) byte for byte.

Each file format is a registered comparer (:data:`FORMATS`, by file suffix; an unregistered suffix
is compared as binary). Two kinds of entries are listed when they differ, never counted:
``digests``, digests of something compared elsewhere (the output ledgers: the sha256 of the files
beside them; the learned adapter's sha256), and ``machine``, what a run records of the machine it
ran on (the CPU kernels in effect, the cache path of a base built for them): on a CPU without
AVX2 they differ by design, and the numbers they produced are compared, within the tolerance.
"""

from __future__ import annotations

import csv
import fnmatch
import hashlib
import io
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.registry import Registry

__all__ = [
    "FORMATS",
    "Comparison",
    "CompareError",
    "Digests",
    "FileResult",
    "Finding",
    "Tolerance",
    "compare",
    "compare_bytes",
    "json_path",
]


class CompareError(ValueError):
    """A bad pair of paths or settings (one line)."""


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float

    def __post_init__(self) -> None:
        for name in ("rtol", "atol"):
            value = getattr(self, name)
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not (number and math.isfinite(value) and value >= 0):
                raise CompareError(f"{name} must be a finite number >= 0, got {value!r}")

    def close(self, a: float, b: float) -> bool:
        try:
            x, y = float(a), float(b)
        except OverflowError:  # an integer beyond any float, beside a float: never close
            return False
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return math.isclose(x, y, rel_tol=self.rtol, abs_tol=self.atol)

    def __str__(self) -> str:
        return f"rtol={self.rtol:g}, atol={self.atol:g}"


@dataclass(frozen=True)
class Finding:
    """One difference: where (``file:path inside``) and what each side holds, as shown."""

    where: str
    left: str
    right: str

    def line(self, label: str = "differs") -> str:
        return f"{label}: {self.where}: left={self.left}, right={self.right}"


@dataclass(frozen=True)
class Digests:
    """``GLOB`` (a whole file) or ``GLOB:KEY`` (every value under a JSON key named KEY in such
    files); globs match the path inside the compared directory (``*`` spans folders)."""

    patterns: tuple[str, ...] = ()

    def whole_file(self, rel: str) -> bool:
        return any(":" not in p and fnmatch.fnmatchcase(rel, p) for p in self.patterns)

    def keys(self, rel: str) -> frozenset[str]:
        out = set()
        for pattern in self.patterns:
            glob, sep, key = pattern.rpartition(":")
            if sep and fnmatch.fnmatchcase(rel, glob):
                out.add(key)
        return frozenset(out)


@dataclass
class FileResult:
    """What comparing one file found."""

    rel: str
    beyond: list[Finding] = field(default_factory=list)  # differences that count
    within: int = 0  # numbers that differ, within tolerance
    digests: list[str] = field(default_factory=list)  # digest entries that differ (not counted)
    machine: list[str] = field(default_factory=list)  # machine entries that differ (not counted)
    identical: bool = False  # byte for byte


# ---- the walk over JSON-like trees (JSON, JSONL, CSV rows, Parquet rows) --------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_ABSENT = object()


def json_path(parent: str, key: str | int) -> str:
    """``parent.key`` for a plain name, ``parent["odd key"]`` otherwise, ``parent[i]`` for an
    index: unambiguous, and what a reader types to find the value."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _NAME.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "(absent)"
    if isinstance(value, float):
        return repr(value)
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass
class _Walk:
    """The walk of one file: its result, the tolerance and the uncounted keys that apply to it."""

    result: FileResult
    tolerance: Tolerance
    digest_keys: frozenset[str]
    machine_keys: frozenset[str] = frozenset()

    def where(self, path: str) -> str:
        return f"{self.result.rel}:{path}" if path else self.result.rel

    def differ(self, path: str, left: Any, right: Any) -> None:
        self.result.beyond.append(Finding(self.where(path), _show(left), _show(right)))

    def values(self, path: str, a: Any, b: Any) -> None:
        if _is_number(a) and _is_number(b):
            if a == b or all(isinstance(x, float) and math.isnan(x) for x in (a, b)):
                return  # equal, or NaN on both sides
            if isinstance(a, int) and isinstance(b, int):
                self.differ(path, a, b)  # counts are exact
            elif self.tolerance.close(a, b):
                self.result.within += 1
            else:
                self.differ(path, a, b)
        elif isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                sub = json_path(path, str(key))
                left, right = a.get(key, _ABSENT), b.get(key, _ABSENT)
                if key in self.digest_keys or key in self.machine_keys:
                    if left != right:
                        kept = (
                            self.result.digests if key in self.digest_keys else self.result.machine
                        )
                        kept.append(self.where(sub))
                elif left is _ABSENT or right is _ABSENT:
                    self.differ(sub, left, right)
                else:
                    self.values(sub, left, right)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                # items cannot be paired: comparing them by position would name every later one
                self.differ(path, f"{len(a)} items", f"{len(b)} items")
                return
            for i, (left, right) in enumerate(zip(a, b, strict=True)):
                self.values(json_path(path, i), left, right)
        elif type(a) is not type(b) or a != b:
            self.differ(path, a, b)

    def table(self, a: tuple[list[str], list[dict[str, Any]]], b: Any) -> None:
        """Rows under named columns (CSV, Parquet): the columns once, then every cell."""
        (left_columns, left_rows), (right_columns, right_rows) = a, b
        if left_columns != right_columns:
            self.differ("columns", left_columns, right_columns)
            return
        if len(left_rows) != len(right_rows):
            self.differ("rows", f"{len(left_rows)} rows", f"{len(right_rows)} rows")
            return
        self.values("", left_rows, right_rows)


# ---- formats ---------------------------------------------------------------------------------


class _Unreadable(ValueError):
    """A file that is not valid in its format (on one side)."""


Comparer = Callable[[bytes, bytes, _Walk], None]
FORMATS: Registry[Comparer] = Registry("compared file format")


def _load(kind: str, load: Callable[[bytes], Any], a: bytes, b: bytes, walk: _Walk) -> Any:
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
def compare_json(a: bytes, b: bytes, walk: _Walk) -> None:
    loaded = _load("JSON", _json, a, b, walk)
    if loaded is not None:
        walk.values("", *loaded)


@FORMATS.register("jsonl")
def compare_jsonl(a: bytes, b: bytes, walk: _Walk) -> None:
    loaded = _load("JSON Lines", _jsonl, a, b, walk)
    if loaded is not None:
        walk.values("", *loaded)


@FORMATS.register("csv")
def compare_csv(a: bytes, b: bytes, walk: _Walk) -> None:
    loaded = _load("CSV", _csv, a, b, walk)
    if loaded is not None:
        walk.table(*loaded)


@FORMATS.register("parquet")
def compare_parquet(a: bytes, b: bytes, walk: _Walk) -> None:
    loaded = _load("Parquet", _parquet, a, b, walk)
    if loaded is not None:
        walk.table(*loaded)


def compare_text(a: bytes, b: bytes, walk: _Walk) -> None:
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
    return lines[i] if i < len(lines) else _ABSENT


for _text_suffix in ("md", "tex", "txt", "html", "yaml", "yml", "log"):
    FORMATS.register(_text_suffix, compare_text)


def compare_binary(a: bytes, b: bytes, walk: _Walk) -> None:
    """Byte for byte (a figure is plotted from values rounded to what the tables show, so its
    bytes are as stable as the tables')."""

    def digest(data: bytes) -> str:
        return f"{len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()[:12]}"

    walk.result.beyond.append(Finding(walk.where("bytes"), digest(a), digest(b)))


# ---- files and directories -------------------------------------------------------------------


def suffix_of(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


def compare_bytes(
    rel: str,
    a: bytes,
    b: bytes,
    tolerance: Tolerance,
    digests: Digests = Digests(),
    machine: Digests = Digests(),
) -> FileResult:
    """One file's two versions (``rel`` names it in every finding and picks its format)."""
    result = FileResult(rel)
    if a == b:
        result.identical = True
        return result
    for rules, kept in ((digests, result.digests), (machine, result.machine)):
        if rules.whole_file(rel):
            kept.append(rel)
            return result
    suffix = suffix_of(rel)
    comparer = FORMATS.get(suffix) if suffix in FORMATS else compare_binary
    comparer(a, b, _Walk(result, tolerance, digests.keys(rel), machine.keys(rel)))
    return result


def _files(root: Path) -> dict[str, Path]:
    """Every file under ``root`` by its path inside (posix), hidden files included."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@dataclass
class Comparison:
    left: Path
    right: Path
    tolerance: Tolerance
    files: list[FileResult]
    only_left: list[str]
    only_right: list[str]

    @property
    def beyond(self) -> list[Finding]:
        return [f for r in self.files for f in r.beyond]

    @property
    def agree(self) -> bool:
        return not (self.beyond or self.only_left or self.only_right)

    def lines(self) -> list[str]:
        """Every difference that counts (one line each), then the summary line."""
        out = [f.line() for f in self.beyond]
        out += [f"only in left: {rel}" for rel in self.only_left]
        out += [f"only in right: {rel}" for rel in self.only_right]
        return [*out, self.summary()]

    def summary(self) -> str:
        identical = sum(r.identical for r in self.files)
        within = [r for r in self.files if r.within and not r.beyond]
        digests = [d for r in self.files if not r.beyond for d in r.digests]
        # listed beside differences too: another CPU's kernels are what explains them
        machine = [m for r in self.files for m in r.machine]
        n = len(self.files)
        parts = [f"{identical} of {n} file(s) byte-identical"]
        if within:
            listed = ", ".join(f"{r.rel} ({r.within:,} numbers)" for r in within)
            parts.append(f"{len(within)} within tolerance: {listed}")
        if digests:
            parts.append(
                f"digests that differ, not counted (they hash what is compared here, or learned "
                f"weights): {', '.join(digests)}"
            )
        if machine:
            parts.append(
                f"machine entries that differ, not counted (what each run's CPU used; its numbers "
                f"are compared): {', '.join(machine)}"
            )
        pair = f"{self.left} and {self.right}"
        if self.agree:
            return f"{pair} agree within {self.tolerance}: " + "; ".join(parts)
        bad = [r for r in self.files if r.beyond]
        head = f"{len(self.beyond)} difference(s) beyond {self.tolerance} in {len(bad)} file(s)"
        sides = [
            f"{len(names)} file(s) only in {side}"
            for side, names in (("left", self.only_left), ("right", self.only_right))
            if names
        ]
        return f"{pair} differ: " + "; ".join([head, *sides, *parts])


def _patterns(given: Sequence[str] | Digests) -> Digests:
    return given if isinstance(given, Digests) else Digests(tuple(given))


def compare(
    left: Path,
    right: Path,
    tolerance: Tolerance,
    digests: Sequence[str] | Digests = (),
    machine: Sequence[str] | Digests = (),
) -> Comparison:
    """Compare two files (of one format) or two directories (file by file, by path inside)."""
    rules, machine_rules = _patterns(digests), _patterns(machine)
    for side, path in (("left", left), ("right", right)):
        if not path.exists():
            raise CompareError(f"{side}={path} does not exist")
        if not (path.is_file() or path.is_dir()):
            raise CompareError(f"{side}={path} is neither a file nor a directory")
    if left.is_dir() != right.is_dir():
        kinds = ["a directory" if p.is_dir() else "a file" for p in (left, right)]
        raise CompareError(
            f"left={left} is {kinds[0]} but right={right} is {kinds[1]} "
            "(compare two metrics files or two results directories)"
        )
    if left.is_file():
        pairs: Iterable[tuple[str, Path, Path]] = [(left.name, left, right)]
        only_left: list[str] = []
        only_right: list[str] = []
    else:
        a, b = _files(left), _files(right)
        pairs = [(rel, a[rel], b[rel]) for rel in sorted(a.keys() & b.keys())]
        only_left, only_right = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    results = [
        compare_bytes(rel, x.read_bytes(), y.read_bytes(), tolerance, rules, machine_rules)
        for rel, x, y in pairs
    ]
    return Comparison(left, right, tolerance, results, only_left, only_right)
