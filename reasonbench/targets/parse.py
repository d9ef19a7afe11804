"""Frozen, strict parsers: one per target. They never raise; failures are typed values.

Strict means the line structure and keywords of the serialization are required exactly (only
surrounding whitespace is stripped) and every verdict must belong to the stratum's label set.
Member and set order inside a receipt are not significant (a model may list sources in the order
a permuted prompt showed them); the family is canonicalised before comparison.
"""

from __future__ import annotations

from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import canonical_family
from reasonbench.core.sources import GNA, cell_key, cell_order, mask_from_names
from reasonbench.targets.base import TARGETS, ParseError, ParseFailure, ParseResult
from reasonbench.targets.serialize import EMPTY_CELL, NO_RECEIPT, SET_SEPARATOR

__all__ = [
    "parse_cube",
    "parse_direct_receipt",
    "parse_direct_verdict",
    "parse_rationale_receipt",
    "parse_target",
]


def _field(line: str, key: str) -> str:
    prefix = f"{key}: "
    if not line.startswith(prefix):
        raise ParseError(f"expected a line starting with {prefix!r}, got {line[:40]!r}")
    return line[len(prefix) :].strip()


def _label(value: str, labels: frozenset[str]) -> str:
    if value not in labels:
        raise ParseError(f"unknown verdict {value[:40]!r}")
    return value


def _family(text: str, sources: tuple[str, ...]) -> tuple[int, ...]:
    if text == NO_RECEIPT:
        return ()
    masks = []
    for part in text.split(SET_SEPARATOR):
        names = part.strip().split("+")
        if not all(names):
            raise ParseError(f"empty source name in receipt set {part!r}")
        try:
            masks.append(mask_from_names(names, sources))
        except ValueError as exc:
            raise ParseError(str(exc)) from None
    if len(set(masks)) != len(masks):
        raise ParseError("a receipt set is listed twice")
    return canonical_family(masks, len(sources))


def _lines(text: str, count: int) -> list[str]:
    lines = text.strip().split("\n")
    if len(lines) != count:
        raise ParseError(f"expected {count} line(s), got {len(lines)}")
    return [line.strip() for line in lines]


def parse_direct_verdict(text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    (line,) = _lines(text, 1)
    return Answer(None, _label(_field(line, "verdict"), labels), None)


def _receipt_lines(lines: list[str], labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    old = _label(_field(lines[0], "old"), labels)
    new = _label(_field(lines[1], "new"), labels)
    return Answer(old, new, _family(_field(lines[2], "receipt"), sources))


def parse_direct_receipt(text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    return _receipt_lines(_lines(text, 3), labels, sources)


def parse_rationale_receipt(text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    lines = _lines(text, 4)
    if not lines[0].startswith("rationale:"):  # free text; only the key is checked
        raise ParseError(f"expected a line starting with 'rationale:', got {lines[0][:40]!r}")
    return _receipt_lines(lines[1:], labels, sources)


def parse_cube(text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    (line,) = _lines(text, 1)
    cells = _field(line, "cube").split()
    order = cell_order(len(sources))
    if len(cells) != len(order):
        raise ParseError(f"expected {len(order)} cells, got {len(cells)}")
    verdicts: dict[int, str] = {}
    for mask, cell in zip(order, cells, strict=True):
        key, sep, value = cell.partition("=")
        expected = cell_key(mask, sources) or EMPTY_CELL
        if not sep or key != expected:
            raise ParseError(f"expected cell {expected!r} in the fixed order, got {cell[:40]!r}")
        verdicts[mask] = _label(value, labels)
    return Answer.of_cube(Cube(sources, tuple(verdicts[m] for m in range(1 << len(sources)))))


def parse_target(
    target: str, text: object, labels: frozenset[str], sources: tuple[str, ...] = GNA
) -> ParseResult:
    """Parse ``text`` as ``target``; any problem is a ``ParseFailure`` naming it."""
    if target not in TARGETS:
        return ParseFailure(target, TARGETS.unknown(target))
    if not isinstance(text, str):
        return ParseFailure(target, f"output is {type(text).__name__}, not text")
    try:
        return TARGETS.get(target).parse(text, labels, sources)
    except ParseError as exc:
        return ParseFailure(target, str(exc))
