"""A learning target is one registered object: how gold is written, how an answer is read back
(the frozen strict parser), what a zero-shot judge is told, how many tokens decoding may spend,
and what the answer carries. Everything that depends on the target reads it from here:
serialization and the audit (``targets/serialize.py``), judges' instructions, training and
prediction, and the analysis (whether a method is verdict-only comes from its target)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.registry import Registry

__all__ = ["TARGETS", "ParseError", "ParseFailure", "ParseResult", "Target", "get_target"]


class ParseError(Exception):
    """Raised inside a parser; :func:`reasonbench.targets.parse_target` turns it into a value."""


@dataclass(frozen=True)
class ParseFailure:
    target: str
    reason: str


ParseResult = Answer | ParseFailure

Serializer = Callable[[Cube, Receipt, str], str]
"""(gold cube, gold receipt, rationale line) -> the target text."""

Parser = Callable[[str, frozenset[str], tuple[str, ...]], Answer]
"""(text, verdict labels, sources) -> the answer; raises :class:`ParseError`."""


@dataclass(frozen=True)
class Target:
    name: str
    serialize: Serializer
    parse: Parser
    answer_format: str  # the instruction's paragraph that spells the answer format
    lines: int  # lines of a well-formed answer (a zero-shot answer is cut to these)
    max_new_tokens: int  # decoding budget (Qwen3 tokens; gold needs fewer)
    verdict_only: bool  # carries the revised verdict alone: no old verdict, no receipt
    verdict_source: str  # what produces the revised verdict (a prediction record field)
    verdict_pattern: Callable[[tuple[str, ...]], str]  # regex; group 1 = the revised verdict


TARGETS: Registry[Target] = Registry("target")
"""The learning targets, in the paper's order (``targets/builtin.py`` registers the four)."""


def get_target(name: str) -> Target:
    return TARGETS.get(name)
