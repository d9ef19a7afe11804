"""The project's one compact JSON text, a memo of it on immutable objects, and parsing once
per distinct content.

``canonical_json`` is what records store (sorted keys, no spaces, UTF-8 kept) and what content
keys compare. ``memo_text`` keeps a text on the frozen object it describes, computed once: a
build encodes the same specs and components thousands of times (see ``SupportsStateText``).
``json_utf8`` writes such a text as bytes. ``parsed_once`` is the other direction: an audit
reads thousands of stored states whose parts (a unit's rules, fact sets, norms, authorities)
recur, and validating each again dominated it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

__all__ = ["canonical_json", "json_utf8", "memo_text", "parsed_once"]

T = TypeVar("T")

_SLOT = "_canonical_json"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def json_utf8(text: str) -> bytes:
    """JSON text written with ``ensure_ascii=False``, as UTF-8 bytes.

    A JSON string may hold a lone surrogate (``"\\ud800"`` is valid JSON), which UTF-8 cannot
    encode: it is written as that very escape, so the bytes decode to the same JSON value. Every
    other text encodes as plain UTF-8 (so keys hashed from it before are unchanged). In prose
    (a Markdown report) such a character reads as its escape."""
    return text.encode("utf-8", "backslashreplace")


def memo_text(obj: Any, build: Callable[[], str]) -> str:
    """``build()`` for the frozen ``obj``, kept on it (in its ``__dict__``: equality and hash
    read the fields alone, and a copy made with ``dataclasses.replace`` starts without it)."""
    found = obj.__dict__.get(_SLOT)
    if found is None:
        found = build()
        object.__setattr__(obj, _SLOT, found)
    return str(found)


def parsed_once(parse: Callable[[Any], T], maxsize: int = 4096) -> Callable[[Any], T]:
    """``parse``, run once per distinct content (keyed by its canonical JSON text; each call
    parses a fresh copy decoded from that text). A value that is not JSON is parsed as given,
    so the parser's own error names what is wrong with it."""

    @lru_cache(maxsize=maxsize)
    def from_text(text: str) -> T:
        return parse(json.loads(text))

    def parsed(raw: Any) -> T:
        try:
            text = canonical_json(raw)
        except (TypeError, ValueError):
            return parse(raw)
        return from_text(text)

    return parsed
