"""An optional lenient reading of an answer, reported *beside* the strict parse, never instead.

Instruction-following models often wrap the requested lines in prose or markdown. The lenient
reading finds each key the target needs (``verdict:``, ``old:``/``new:``/``receipt:``,
``rationale:``, ``cube:``) anywhere in the answer — case-insensitive, ignoring markdown emphasis,
backticks, heading and bullet marks; the last occurrence wins, as models tend to restate their
final answer — rebuilds the canonical lines and hands them to the same frozen strict parser.
How many answers only the lenient reading accepts measures formatting failures apart from
reasoning failures; ``parse_ok`` and every metric stay strict.
"""

from __future__ import annotations

import re

from reasonbench.core.sources import GNA
from reasonbench.targets import ParseResult, parse_target

__all__ = ["KEYS", "lenient_parse"]

KEYS = {
    "direct_verdict": ("verdict",),
    "direct_receipt": ("old", "new", "receipt"),
    "rationale_receipt": ("rationale", "old", "new", "receipt"),
    "cube": ("cube",),
}
MARKS = re.compile(r"[*`_#>]+")
BULLET = re.compile(r"^\s*(?:[-+•]|\d+[.)])\s+")


def _value(key: str, value: str) -> str:
    value = value.strip().rstrip(".,;")
    if key == "receipt" and value.lower() == "none":
        return "none"
    return value if key in ("rationale", "receipt", "cube") else value.lower()


def lenient_parse(target: str, text: str, labels: frozenset[str]) -> ParseResult:
    found: dict[str, str] = {}
    for line in text.split("\n"):
        clean = BULLET.sub("", MARKS.sub("", line)).strip()
        key, sep, value = clean.partition(":")
        key = key.strip().lower()
        if sep and key in KEYS.get(target, ()):
            found[key] = _value(key, value)
    rebuilt = "\n".join(f"{k}: {found.get(k, '')}" for k in KEYS.get(target, ()))
    return parse_target(target, rebuilt, labels, GNA)
