"""Reading a policy text back into a rule and a scope: the inverse of rendering under a wording.

Certification must not trust the renderer, so rewritten texts are parsed back, from the text
alone, by a backtracking parser built from the wording's templates and the clause schema: every
way of reading the text is enumerated, and a text that reads as two different rules is refused
as ambiguous. Values are read back as numbers, flags and categories (money and units included),
so a dropped threshold, a lost exception or a swapped outcome cannot survive a round trip.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from reasonbench.strata.organizational.model import (
    NUMERIC_OPS,
    OUTCOMES,
    Condition,
    Norm,
    Predicate,
    Scope,
)
from reasonbench.strata.organizational.render import PRED_KEYS, SYMBOLS, Family
from reasonbench.strata.organizational.schema import FieldSpec

__all__ = ["AmbiguousText", "PolicyParser", "UnreadableText"]

Parser = Callable[[str, int], Iterator[tuple[int, Any]]]
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})*")
DIGITS = re.compile(r"\d+")
MAX_READINGS = 64  # a sane text has a handful of readings; more means a broken grammar


class UnreadableText(ValueError):
    """No reading of the text as a rule (or scope) of this clause exists."""


class AmbiguousText(ValueError):
    """The text reads as more than one rule (or scope)."""


def literal(word: str) -> Parser:
    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        if text.startswith(word, pos):
            yield pos + len(word), word

    return parse


def regex(compiled: re.Pattern[str], convert: Callable[[str], Any]) -> Parser:
    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        match = compiled.match(text, pos)
        if match:
            yield match.end(), convert(match.group(0))

    return parse


def choice(parsers: Sequence[Parser]) -> Parser:
    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        for parser in parsers:
            yield from parser(text, pos)

    return parse


def mapped(parser: Parser, convert: Callable[[Any], Any]) -> Parser:
    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        for end, value in parser(text, pos):
            yield end, convert(value)

    return parse


def present(parser: Parser) -> Parser:
    """Only the readings whose value exists (``None``: the template lost a placeholder)."""

    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        for end, value in parser(text, pos):
            if value is not None:
                yield end, value

    return parse


def separated(item: Parser, separator: str) -> Parser:
    """One or more items joined by ``separator``; every possible split is a reading."""

    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        for end, value in item(text, pos):
            yield end, [value]
            if text.startswith(separator, end):
                for rest_end, rest in parse(text, end + len(separator)):
                    yield rest_end, [value, *rest]

    return parse


def template(pattern: str, slots: Mapping[str, Parser | str]) -> Parser:
    """A template whose placeholders are parsed by ``slots`` (a ``str`` slot is fixed text);
    yields ``{slot: value}`` for the parsed slots."""
    pieces: list[tuple[str | None, Parser]] = []
    run = ""  # fixed text is merged into the literals around it (one startswith, not three)
    first: str | None = None  # the fixed text every match starts with
    for text_part, name, _, _ in string.Formatter().parse(pattern):
        run += text_part
        slot = None if name is None else slots[name]
        if slot is None or isinstance(slot, str):
            run += slot or ""
            continue
        first = run if first is None else first
        if run:
            pieces.append((None, literal(run)))
        pieces.append((name, slot))
        run = ""
    if run:
        pieces.append((None, literal(run)))
    prefix = run if first is None else first

    def walk(text: str, i: int, pos: int, bound: dict[str, Any]) -> Iterator[tuple[int, Any]]:
        if i == len(pieces):
            yield pos, bound
            return
        name, parser = pieces[i]
        for end, value in parser(text, pos):
            yield from walk(text, i + 1, end, bound if name is None else {**bound, name: value})

    def parse(text: str, pos: int) -> Iterator[tuple[int, Any]]:
        if text.startswith(prefix, pos):  # cheap rejection: most templates fail on their first word
            yield from walk(text, 0, pos, {})

    return parse


def _number(text: str) -> int:
    return int(text.replace(",", ""))


Sentence = tuple[str, str, list[Any], int]  # (kind, outcome or note key, predicates, number)


def _const(value: Any) -> Callable[[Any], Any]:
    return lambda _: value


def _predicate(
    name: str, op: str, value: Callable[[Any], Any]
) -> Callable[[Any], Predicate | None]:
    def build(bound: Any) -> Predicate | None:
        try:
            return Predicate(name, op, value(bound))
        except (KeyError, TypeError, ValueError):  # a template without its value placeholder
            return None

    return build


def _sentence(kind: str, tag: str) -> Callable[[Any], Sentence]:
    # a template without {preds} or {n} reads as an empty conjunction / number 0, which the
    # certifier then rejects (another rule / bad numbering) instead of crashing here
    return lambda bound: (kind, tag, list(bound.get("preds", [])), int(bound.get("n", 0)))


class PolicyParser:
    """Parses rule and scope texts of one clause written with one family of templates."""

    def __init__(self, specs: Mapping[str, FieldSpec], family: Family, subject: Mapping[str, str]):
        self.family = family
        self.words: dict[str, Parser | str] = dict(subject)
        predicate = present(choice([p for spec in specs.values() for p in self._predicates(spec)]))
        self.preds = separated(predicate, family["pred_joiner"])
        self.sentence = choice(self._sentences())
        self.scope_parser = template(family["scope"], {**self.words, "tests": self.preds})

    def _value(self, spec: FieldSpec) -> Parser:
        number = regex(NUMBER, _number)
        if spec.kind == "money":
            slots: dict[str, Parser | str] = {"symbol": SYMBOLS[spec.unit], "code": spec.unit}
            money = template(self.family["money"], {**slots, "amount": number})
            return mapped(money, lambda b: b["amount"])
        if spec.unit:
            units = choice([literal(spec.unit), literal(spec.unit_one)])
            quantity = template(self.family["quantity"], {"amount": number, "unit": units})
            return mapped(quantity, lambda b: b["amount"])
        return number

    def _predicates(self, spec: FieldSpec) -> list[Parser]:
        f, name = self.family, spec.name
        slots: dict[str, Parser | str] = {"label": spec.label}
        out: list[Parser] = []
        if spec.numeric:
            value = self._value(spec)
            for op in NUMERIC_OPS:
                read = template(f[PRED_KEYS[op]], {**slots, "value": value})
                out.append(mapped(read, _predicate(name, op, lambda b: b["value"])))
            band = template(f["pred_between"], {**slots, "low": value, "high": value})
            out.append(mapped(band, _predicate(name, "between", lambda b: (b["low"], b["high"]))))
        elif spec.kind == "bool":
            slots |= {"yes": spec.yes, "no": spec.no}
            out.append(mapped(template(f["pred_yes"], slots), _predicate(name, "is", _const(True))))
            out.append(mapped(template(f["pred_no"], slots), _predicate(name, "is", _const(False))))
        else:
            shown = {v.replace("_", " "): v for v in spec.values}
            item = choice([mapped(literal(k), _const(v)) for k, v in shown.items()])
            for op in ("in", "not_in"):
                values = separated(item, f[f"{op}_joiner"])
                read = template(f[f"pred_{op}"], {**slots, "values": values})
                out.append(mapped(read, _predicate(name, op, lambda b: tuple(b["values"]))))
        return out

    def _sentences(self) -> list[Parser]:
        f, words = self.family, self.words
        out: list[Parser] = []
        numbered = {**words, "preds": self.preds, "n": regex(DIGITS, int)}
        for outcome in OUTCOMES:
            rule = template(f[f"condition_{outcome}"], {**words, "preds": self.preds})
            out.append(mapped(rule, _sentence("condition", outcome)))
            exception = template(f[f"exception_{outcome}"], numbered)
            out.append(mapped(exception, _sentence("exception", outcome)))
            default = template(f[f"default_{outcome}"], words)
            out.append(mapped(default, _sentence("default", outcome)))
        for key in ("deny_precedence", "exception_order", "exceptions_lead", "rules_lead"):
            if key in f:  # notes carry no rule content; the round-trip check pins their place
                out.append(mapped(template(f[key], words), _sentence("note", key)))
        return out

    def _readings(self, text: str, pos: int) -> Iterator[list[Sentence]]:
        for end, sentence in self.sentence(text, pos):
            if end == len(text):
                yield [sentence]
            elif text.startswith(" ", end):
                for rest in self._readings(text, end + 1):
                    yield [sentence, *rest]

    def norm(self, text: str) -> Norm:
        """The one rule ``text`` states; ``UnreadableText`` / ``AmbiguousText`` otherwise."""
        found: list[Norm] = []
        for count, reading in enumerate(self._readings(text, 0)):
            norm = _assemble(reading)
            if norm is not None and norm not in found:
                found.append(norm)
            if len(found) > 1 or count > MAX_READINGS:
                raise AmbiguousText(f"the rule text has several readings: {text[:80]!r}...")
        if not found:
            raise UnreadableText(f"no reading of the rule text: {text[:120]!r}")
        return found[0]

    def scope(self, text: str) -> Scope:
        found = {
            Scope(tuple(b["tests"])) for end, b in self.scope_parser(text, 0) if end == len(text)
        }
        if not found:
            raise UnreadableText(f"no reading of the scope text: {text[:120]!r}")
        if len(found) > 1:
            raise AmbiguousText(f"the scope text has several readings: {text[:80]!r}...")
        return found.pop()


def _assemble(reading: list[Sentence]) -> Norm | None:
    """A rule from a sequence of sentences, or ``None`` when they do not form one."""
    conditions = [Condition(tuple(p), o) for kind, o, p, _ in reading if kind == "condition"]
    exceptions = sorted(
        ((n, Condition(tuple(p), o)) for kind, o, p, n in reading if kind == "exception"),
        key=lambda pair: pair[0],
    )
    defaults = [o for kind, o, _, _ in reading if kind == "default"]
    if len(defaults) != 1 or [n for n, _ in exceptions] != list(range(1, len(exceptions) + 1)):
        return None  # one default; exceptions numbered 1..m (their number is their priority)
    return Norm(defaults[0], tuple(conditions), tuple(e for _, e in exceptions))
