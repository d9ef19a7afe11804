"""Frozen, strict parsers: one per target. They never raise; failures are typed values.

Strict means the line structure and keywords of the serialization are required exactly (only
surrounding whitespace is stripped) and every verdict must belong to the stratum's label set.
Member and set order inside a receipt are not significant (a model may list sources in the order
a permuted prompt showed them); the family is canonicalised before comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import canonical_family, receipt_of
from reasonbench.core.sources import GNA, cell_key, cell_order, mask_from_names
from reasonbench.targets.serialize import EMPTY_CELL, NO_RECEIPT, SET_SEPARATOR, TARGETS


@dataclass(frozen=True)
class Parsed:
    """What a prediction says; fields a target does not carry are ``None``."""

    target: str
    old: str | None
    new: str | None
    sets: tuple[int, ...] | None  # receipt masks, canonical order
    cube: Cube | None = None


@dataclass(frozen=True)
class ParseFailure:
    target: str
    reason: str


ParseResult = Parsed | ParseFailure


class _Fail(Exception):
    pass


def _field(line: str, key: str) -> str:
    prefix = f"{key}: "
    if not line.startswith(prefix):
        raise _Fail(f"expected a line starting with {prefix!r}, got {line[:40]!r}")
    return line[len(prefix) :].strip()


def _label(value: str, labels: frozenset[str]) -> str:
    if value not in labels:
        raise _Fail(f"unknown verdict {value[:40]!r}")
    return value


def _family(text: str, sources: tuple[str, ...]) -> tuple[int, ...]:
    if text == NO_RECEIPT:
        return ()
    masks = []
    for part in text.split(SET_SEPARATOR):
        names = part.strip().split("+")
        if not all(names):
            raise _Fail(f"empty source name in receipt set {part!r}")
        try:
            masks.append(mask_from_names(names, sources))
        except ValueError as exc:
            raise _Fail(str(exc)) from None
    if len(set(masks)) != len(masks):
        raise _Fail("a receipt set is listed twice")
    return canonical_family(masks, len(sources))


def _lines(text: str, count: int) -> list[str]:
    lines = text.strip().split("\n")
    if len(lines) != count:
        raise _Fail(f"expected {count} line(s), got {len(lines)}")
    return [line.strip() for line in lines]


def _parse(target: str, text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Parsed:
    if target == "direct_verdict":
        (line,) = _lines(text, 1)
        return Parsed(target, None, _label(_field(line, "verdict"), labels), None)
    if target in ("direct_receipt", "rationale_receipt"):
        lines = _lines(text, 4 if target == "rationale_receipt" else 3)
        if target == "rationale_receipt":
            if not lines[0].startswith("rationale:"):  # free text; only the key is checked
                raise _Fail(f"expected a line starting with 'rationale:', got {lines[0][:40]!r}")
            lines = lines[1:]
        old = _label(_field(lines[0], "old"), labels)
        new = _label(_field(lines[1], "new"), labels)
        return Parsed(target, old, new, _family(_field(lines[2], "receipt"), sources))
    if target == "cube":
        (line,) = _lines(text, 1)
        cells = _field(line, "cube").split()
        order = cell_order(len(sources))
        if len(cells) != len(order):
            raise _Fail(f"expected {len(order)} cells, got {len(cells)}")
        verdicts: dict[int, str] = {}
        for mask, cell in zip(order, cells, strict=True):
            key, sep, value = cell.partition("=")
            expected = cell_key(mask, sources) or EMPTY_CELL
            if not sep or key != expected:
                raise _Fail(f"expected cell {expected!r} in the fixed order, got {cell[:40]!r}")
            verdicts[mask] = _label(value, labels)
        cube = Cube(sources, tuple(verdicts[m] for m in range(1 << len(sources))))
        return Parsed(target, cube.old, cube.new, receipt_of(cube).sets, cube)
    raise _Fail(f"unknown target {target!r}; targets are {list(TARGETS)}")


def parse_target(
    target: str, text: object, labels: frozenset[str], sources: tuple[str, ...] = GNA
) -> ParseResult:
    """Parse ``text`` as ``target``; any problem is a ``ParseFailure`` naming it."""
    if not isinstance(text, str):
        return ParseFailure(target, f"output is {type(text).__name__}, not text")
    try:
        return _parse(target, text, labels, sources)
    except _Fail as exc:
        return ParseFailure(target, str(exc))
