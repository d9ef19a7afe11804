"""The pieces every comparison shares: the tolerance, a finding, the per-file result and the walk
over JSON-like trees (JSON, JSONL records, CSV and Parquet rows).

The rule for every number: two floats agree when ``|a − b| <= max(rtol · max(|a|, |b|), atol)``
(:func:`math.isclose`, symmetric; NaN agrees with NaN); two integers only when equal. Everything
else — strings, booleans, nulls, keys, list lengths — must be equal. A subtree that a discontinuous
fit produced (:mod:`.fits`) is handed to its rule instead, which compares it by its effect.
"""

from __future__ import annotations

import fnmatch
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ABSENT",
    "CompareError",
    "Digests",
    "FileResult",
    "Finding",
    "Tolerance",
    "Walk",
    "is_number",
    "json_path",
    "show",
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
    guarantee: str = ""  # the contract's class that applied (contract.py)
    note: str = ""  # why that class applied, when it is not the file's usual one
    moved: list[str] = field(default_factory=list)  # fits that moved, within their rule


# ---- the walk over JSON-like trees (JSON, JSONL, CSV rows, Parquet rows) --------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
ABSENT = object()


def json_path(parent: str, key: str | int) -> str:
    """``parent.key`` for a plain name, ``parent["odd key"]`` otherwise, ``parent[i]`` for an
    index: unambiguous, and what a reader types to find the value."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _NAME.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"


def show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    if isinstance(value, float):
        return repr(value)
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass
class Walk:
    """The walk of one file: its result, the tolerance and the uncounted keys that apply to it."""

    result: FileResult
    tolerance: Tolerance
    digest_keys: frozenset[str]
    machine_keys: frozenset[str] = frozenset()
    # a discontinuous fit's rule for the subtree at a path, or None (fits.py)
    fit_at: Callable[[str, Any, Any], Callable[[Walk, str, Any, Any], None] | None] | None = None

    def where(self, path: str) -> str:
        return f"{self.result.rel}:{path}" if path else self.result.rel

    def differ(self, path: str, left: Any, right: Any) -> None:
        self.result.beyond.append(Finding(self.where(path), show(left), show(right)))

    def values(self, path: str, a: Any, b: Any) -> None:
        rule = self.fit_at(path, a, b) if self.fit_at is not None else None
        if rule is not None:
            rule(self, path, a, b)
            return
        if is_number(a) and is_number(b):
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
                left, right = a.get(key, ABSENT), b.get(key, ABSENT)
                if key in self.digest_keys or key in self.machine_keys:
                    if left != right:
                        kept = (
                            self.result.digests if key in self.digest_keys else self.result.machine
                        )
                        kept.append(self.where(sub))
                elif left is ABSENT or right is ABSENT:
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
