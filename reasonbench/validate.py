"""The one validation kit for plain data documents (YAML data files, state JSON).

Every stratum reads hand-written data, and a broken file must be fixable from the message alone,
so every check raises with the location first (``file: record.field: what is wrong``). A
:class:`Checks` is bound to the error type of the documents it guards (``ClauseError`` for
clause files, ``AreError`` for case families): callers catch their own family's error, and the
wording of a fault is the same whichever stratum's file has it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

__all__ = ["Checks"]


class Checks:
    """Checks that raise ``error(f"{where}: {message}")``."""

    def __init__(self, error: type[ValueError]) -> None:
        self.error = error

    def need(self, ok: bool, where: str, message: str) -> None:
        if not ok:
            raise self.error(f"{where}: {message}")

    def record(
        self, data: Any, where: str, allowed: Collection[str], required: Sequence[str] = ()
    ) -> dict[str, Any]:
        """``data`` as a dict whose keys are all in ``allowed`` and include ``required``."""
        self.need(isinstance(data, dict), where, f"expected a mapping, got {type(data).__name__}")
        unknown = sorted((k for k in data if k not in allowed), key=str)  # YAML may give bool keys
        self.need(not unknown, where, f"unknown key(s) {unknown}; allowed: {sorted(allowed)}")
        missing = [k for k in required if k not in data]
        self.need(not missing, where, f"missing key(s) {missing}")
        return dict(data)

    def items(self, data: Any, where: str) -> list[Any]:
        self.need(isinstance(data, list), where, f"expected a list, got {type(data).__name__}")
        return list(data)

    def text(self, data: Any, where: str) -> str:
        ok = isinstance(data, str) and data.strip() != ""
        self.need(ok, where, f"expected non-empty text, got {data!r}")
        return str(data)

    def ident(self, data: Any, where: str) -> str:
        """An identifier: letters, digits and underscores (ids appear in prompts and labels)."""
        value = self.text(data, where)
        self.need(value.replace("_", "").isalnum(), where, f"{value!r} is not an identifier")
        return value

    def integer(self, data: Any, where: str) -> int:
        ok = isinstance(data, int) and not isinstance(data, bool)  # YAML's true is not a count
        self.need(ok, where, f"expected an integer, got {data!r}")
        return int(data)

    def number(
        self, data: Any, where: str, low: float = -math.inf, high: float = math.inf
    ) -> float:
        ok = isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data)
        self.need(ok, where, f"expected a finite number, got {data!r}")
        self.need(low <= float(data) <= high, where, f"{data!r} is outside [{low}, {high}]")
        return float(data)

    def limit(self, data: Any, where: str) -> float:
        """A positive number, or ``null``/``inf`` for 'no limit' (a cap omega or a threshold)."""
        if data is None or (isinstance(data, str) and data in ("inf", "none")):
            return math.inf
        if isinstance(data, float) and math.isinf(data) and data > 0:
            return math.inf
        value = self.number(data, where, 0.0)
        self.need(value > 0, where, "must be > 0 (use null for no limit)")
        return value

    def choice(self, data: Any, where: str, options: Collection[str]) -> str:
        self.need(data in options, where, f"expected one of {sorted(options)}, got {data!r}")
        return str(data)

    def unique(self, ids: Sequence[str], where: str) -> None:
        seen: set[str] = set()
        for value in ids:
            self.need(value not in seen, where, f"duplicate id {value!r}")
            seen.add(value)
