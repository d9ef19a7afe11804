"""An optional lenient reading of an answer, reported *beside* the strict parse, never instead.

Instruction-following models often wrap the requested lines in prose or markdown. The lenient
reading finds each key of the target's answer format (the last ``lines`` lines of its registered
``answer_format``: ``verdict:``, ``old:``/``new:``/``receipt:``, ``rationale:``, ``cube:``)
anywhere in the answer — case-insensitive, ignoring markdown emphasis, backticks, heading and
bullet marks; the last occurrence wins, as models tend to restate their final answer — rebuilds
the canonical lines and hands them to the same frozen strict parser. It reads the whole answer
(:func:`whole_answer`: the output without its leading reasoning block, *not* cut to the target's
lines as the strict parser's input is), so an answer after a line of preamble counts. How many
answers only the lenient reading accepts separates formatting failures from reasoning failures;
``parse_ok`` and every metric stay strict.
"""

from __future__ import annotations

import re

from reasonbench.core.sources import GNA
from reasonbench.targets import ParseResult, get_target, parse_target
from reasonbench.targets.trim import split_reasoning

__all__ = ["answer_keys", "lenient_parse", "whole_answer"]

MARKS = re.compile(r"[*`_#>]+")
BULLET = re.compile(r"^\s*(?:[-+•]|\d+[.)])\s+")


def answer_keys(target: str) -> tuple[tuple[str, bool], ...]:
    """(key, is a verdict) per line of the target's answer format, in order."""
    spec = get_target(target)
    lines = spec.answer_format.split("\n")[-spec.lines :]
    return tuple((line.split(":", 1)[0], line.endswith("<verdict>")) for line in lines)


def _value(value: str, verdict: bool) -> str:
    value = value.strip().rstrip(".,;")
    return value.lower() if verdict or value.lower() == "none" else value


def whole_answer(raw: str) -> str:
    """What the lenient reading reads of a judge's raw output: all of it but a leading reasoning
    block (keys in the reasoning are the model thinking, not answering)."""
    return split_reasoning(raw)[0]


def lenient_parse(target: str, text: str, labels: frozenset[str]) -> ParseResult:
    keys = dict(answer_keys(target))
    found: dict[str, str] = {}
    for line in text.split("\n"):
        clean = BULLET.sub("", MARKS.sub("", line)).strip()
        key, sep, value = clean.partition(":")
        key = key.strip().lower()
        if sep and key in keys:
            found[key] = _value(value, keys[key])
    rebuilt = "\n".join(f"{k}: {found.get(k, '')}" for k in keys)
    return parse_target(target, rebuilt, labels, GNA)
