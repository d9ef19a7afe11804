"""Reading the cases of a version change: one JSONL line per case (docs/certify.md#input).

A line is ``{"id": "<non-empty string>", "sources": {"<name>": {"old": <json>, "new": <json>},
...}}`` with exactly those keys. Values are opaque JSON (``null`` included) that only the
adjudicator looks at. Every line declares the same set of sources; their order (the order of
cell keys and receipt members) is the first line's, or the configured one. Lines end at ``\n``
only: U+2028, U+0085 and the other characters ``str.splitlines`` would break at are text inside
a JSON string (``json.dumps(..., ensure_ascii=False)`` writes them raw), and a ``\r`` before the
``\n`` is JSON whitespace. Lines of JSON whitespace alone are skipped. Every problem is one
:class:`CaseFileError` naming ``file:line``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.certify.config import MAX_SOURCES, CertifyError
from reasonbench.core.sources import validate_sources

__all__ = ["Case", "CaseFileError", "CaseSet", "read_cases"]

CASE_KEYS = ("id", "sources")
VERSION_KEYS = ("old", "new")
JSON_WHITESPACE = " \t\r"  # and "\n", which ends the line


class CaseFileError(CertifyError):
    """A case file that cannot be read as documented; the message starts with ``file:line``."""


@dataclass(frozen=True)
class Case:
    """One case: its id and the old and new value of every source, in declared source order."""

    id: str
    line: int
    old: tuple[Any, ...]
    new: tuple[Any, ...]

    def hybrid(self, mask: int, sources: tuple[str, ...]) -> dict[str, Any]:
        """H(S) as the adjudicator receives it: sources in ``mask`` from ``new``, in order."""
        return {
            name: (self.new if mask >> i & 1 else self.old)[i] for i, name in enumerate(sources)
        }


@dataclass(frozen=True)
class CaseSet:
    path: Path
    sources: tuple[str, ...]
    cases: tuple[Case, ...]


def _parse_line(text: str, where: str) -> tuple[str, dict[str, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CaseFileError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise CaseFileError(f"{where}: a case must be a JSON object with keys {list(CASE_KEYS)}")
    extra = sorted(set(data) - set(CASE_KEYS))
    missing = [key for key in CASE_KEYS if key not in data]
    if extra or missing:
        what = f"unexpected key(s) {extra}" if extra else f"missing key(s) {missing}"
        raise CaseFileError(f"{where}: {what}; a case has exactly the keys {list(CASE_KEYS)}")
    case_id, sources = data["id"], data["sources"]
    if not isinstance(case_id, str) or not case_id:
        raise CaseFileError(f"{where}: 'id' must be a non-empty string, got {case_id!r}")
    if not isinstance(sources, dict) or not sources:
        raise CaseFileError(f"{where}: 'sources' must be a non-empty object of named sources")
    for name, versions in sources.items():
        if not isinstance(versions, dict):
            raise CaseFileError(
                f"{where}: source {name!r} must be an object {{'old': ..., 'new': ...}}"
            )
        for key in VERSION_KEYS:
            if key not in versions:
                raise CaseFileError(f"{where}: source {name!r} has no {key!r} value")
        extra = sorted(set(versions) - set(VERSION_KEYS))
        if extra:
            raise CaseFileError(f"{where}: source {name!r} has unexpected key(s) {extra}")
    return case_id, sources


def _source_order(
    names: list[str], declared: tuple[str, ...] | None, where: str
) -> tuple[str, ...]:
    order = declared if declared is not None else tuple(names)
    try:
        validate_sources(order)
    except ValueError as exc:
        raise CaseFileError(f"{where}: {exc}") from None
    if len(order) > MAX_SOURCES:
        raise CaseFileError(f"{where}: {len(order)} sources; at most {MAX_SOURCES} are supported")
    return order


def read_cases(path: Path, sources: tuple[str, ...] | None = None) -> CaseSet:
    """All cases of ``path``; ``sources`` fixes the source order (else the first line's)."""
    try:
        # bytes, decoded: read_text would translate a lone "\r" into a line end
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: cannot read the case file ({exc})") from None
    order: tuple[str, ...] | None = None
    seen: dict[str, int] = {}
    cases: list[Case] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(JSON_WHITESPACE):
            continue
        where = f"{path}:{number}"
        case_id, values = _parse_line(line, where)
        if order is None:
            order = _source_order(list(values), sources, where)
        if set(values) != set(order):
            missing = [n for n in order if n not in values]
            extra = sorted(set(values) - set(order))
            parts = [f"missing {missing}" if missing else "", f"extra {extra}" if extra else ""]
            raise CaseFileError(
                f"{where}: case {case_id!r} declares other sources than {list(order)} "
                f"({', '.join(p for p in parts if p)})"
            )
        if case_id in seen:
            raise CaseFileError(
                f"{where}: duplicate id {case_id!r} (first on line {seen[case_id]})"
            )
        seen[case_id] = number
        old = tuple(values[name]["old"] for name in order)
        new = tuple(values[name]["new"] for name in order)
        cases.append(Case(case_id, number, old, new))
    if order is None:
        raise CaseFileError(f"{path}: no cases (the file is empty)")
    return CaseSet(path, order, tuple(cases))
