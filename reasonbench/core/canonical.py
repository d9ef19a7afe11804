"""The project's one compact JSON text, and a memo of it on immutable objects.

``canonical_json`` is what records store (sorted keys, no spaces, UTF-8 kept) and what content
keys compare. ``memo_text`` keeps a text on the frozen object it describes, computed once: a
build encodes the same specs and components thousands of times (see ``SupportsStateText``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["canonical_json", "memo_text"]

_SLOT = "_canonical_json"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def memo_text(obj: Any, build: Callable[[], str]) -> str:
    """``build()`` for the frozen ``obj``, kept on it (in its ``__dict__``: equality and hash
    read the fields alone, and a copy made with ``dataclasses.replace`` starts without it)."""
    found = obj.__dict__.get(_SLOT)
    if found is None:
        found = build()
        object.__setattr__(obj, _SLOT, found)
    return str(found)
