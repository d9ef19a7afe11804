"""Validation helpers for ARE documents (case-family YAML, state JSON), with errors that say where.

Every error is an :class:`AreError` whose message starts with the location (file, record and
field path), so a broken data file or a malformed state is fixed from the message alone.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any


class AreError(ValueError):
    """An invalid ARE document or state; the message names the file/record/field and the fault."""


def need(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise AreError(f"{where}: {message}")


def record(
    data: Any, where: str, allowed: Collection[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """``data`` as a dict whose keys are all in ``allowed`` and include ``required``."""
    need(isinstance(data, dict), where, f"expected a mapping, got {type(data).__name__}")
    unknown = sorted((k for k in data if k not in allowed), key=str)  # YAML may give bool keys
    need(not unknown, where, f"unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    missing = [k for k in required if k not in data]
    need(not missing, where, f"missing key(s) {missing}")
    return dict(data)


def items(data: Any, where: str) -> list[Any]:
    need(isinstance(data, list), where, f"expected a list, got {type(data).__name__}")
    return list(data)


def text(data: Any, where: str) -> str:
    need(isinstance(data, str) and data.strip() != "", where, f"expected text, got {data!r}")
    return str(data)


def ident(data: Any, where: str) -> str:
    """An identifier: letters, digits and underscores (ids appear in prompts and labels)."""
    value = text(data, where)
    need(value.replace("_", "").isalnum(), where, f"{value!r} is not an identifier")
    return value


def number(data: Any, where: str, low: float = -math.inf, high: float = math.inf) -> float:
    ok = isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data)
    need(ok, where, f"expected a finite number, got {data!r}")
    need(low <= float(data) <= high, where, f"{data!r} is outside [{low}, {high}]")
    return float(data)


def limit(data: Any, where: str) -> float:
    """A positive number or ``null``/``inf`` for 'no limit' (a cap omega or a threshold)."""
    if data is None or (isinstance(data, str) and data in ("inf", "none")):
        return math.inf
    if isinstance(data, float) and math.isinf(data) and data > 0:
        return math.inf
    value = number(data, where, 0.0)
    need(value > 0, where, "must be > 0 (use null for no limit)")
    return value


def choice(data: Any, where: str, options: Collection[str]) -> str:
    need(data in options, where, f"expected one of {sorted(options)}, got {data!r}")
    return str(data)


def unique(ids: Sequence[str], where: str) -> None:
    seen: set[str] = set()
    for value in ids:
        need(value not in seen, where, f"duplicate id {value!r}")
        seen.add(value)


def finite_or_null(value: float) -> float | None:
    """JSON has no infinity: ``inf`` is written as ``null`` (and read back by :func:`limit`)."""
    return None if math.isinf(value) else value
