"""Certification of a rewrite by execution.

A rewritten prompt is accepted only if, for every policy component it words (the old and the
revised rule N and scope A):

1. the text parses back — from the text alone, unambiguously — into a rule and a scope
   (:class:`~reasonbench.strata.organizational.rewrites.textparse.PolicyParser`);
2. the parsed objects *compile to the same rule*: equal to the originals up to the order of
   conditions and of the parts of a conjunction (deny overrides approve and conjunctions
   commute, so execution cannot see either order; exception order is kept, it decides);
3. re-rendering the parsed objects reproduces the text (the reading is the text's, not a lucky
   subset of it);

and executing the 2^3 hybrids of the *parsed* old and revised states through the trusted
adjudicator reproduces every cell of the item's gold cube.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.model import Condition, Norm, Predicate, Scope
from reasonbench.strata.organizational.render import subject_words
from reasonbench.strata.organizational.rewrites.render import rule_text, scope_rule_text
from reasonbench.strata.organizational.rewrites.textparse import (
    AmbiguousText,
    PolicyParser,
    UnreadableText,
)
from reasonbench.strata.organizational.rewrites.wording import Wording
from reasonbench.strata.organizational.schema import Clause

__all__ = ["CertificationError", "Certifier", "canonical_norm", "canonical_scope"]


T = TypeVar("T", Norm, Scope)


class CertificationError(ValueError):
    """A rewrite failed certification; the message names clause, variant and what failed."""


def _key(p: Predicate) -> tuple[str, str, str]:
    return (p.field, p.op, repr(p.value))


def _sorted(item: Condition) -> Condition:
    return Condition(tuple(sorted(item.when, key=_key)), item.outcome)


def canonical_norm(norm: Norm) -> Norm:
    """The rule with everything execution cannot see put in one order."""
    conditions = sorted(
        (_sorted(c) for c in norm.conditions),
        key=lambda c: (c.outcome, [_key(p) for p in c.when]),
    )
    return Norm(norm.default, tuple(conditions), tuple(_sorted(e) for e in norm.exceptions))


def canonical_scope(scope: Scope) -> Scope:
    return Scope(tuple(sorted(scope.tests, key=_key)))


class Certifier:
    """Certifies rewrites of one clause under one wording (readings are cached per text, the
    comparison with the intended rule or scope is not)."""

    def __init__(self, clause: Clause, wording: Wording) -> None:
        self.clause, self.wording = clause, wording
        self.parser = PolicyParser(clause.by_name, wording.family, subject_words(clause))
        self._norms: dict[str, Norm] = {}
        self._scopes: dict[str, Scope] = {}

    def _fail(self, message: str) -> CertificationError:
        w = self.wording
        return CertificationError(
            f"{self.clause.unit_id}: rewrite {w.variant!r} ({w.family_name}): {message}"
        )

    def norm(self, norm: Norm) -> Norm:
        """The rule as read back from its rewritten text (checks 1–3)."""
        return self._read(norm, "rule", rule_text, self.parser.norm, canonical_norm, self._norms)

    def scope(self, scope: Scope) -> Scope:
        """The scope as read back from its rewritten text (checks as for :meth:`norm`)."""
        return self._read(
            scope, "scope", scope_rule_text, self.parser.scope, canonical_scope, self._scopes
        )

    def _read(
        self,
        item: T,
        what: str,
        render: Callable[..., str],
        parse: Callable[[str], T],
        canonical: Callable[[T], T],
        cache: dict[str, T],
    ) -> T:
        """``item`` (a rule or a scope) as read back from its text. The reading of a text is
        cached (checks 1 and 3 depend on the text alone); check 2 compares it with *this* item on
        every call, since another item may render to the same text and must not inherit a
        reading made for the first one."""
        text = render(self.clause, item, self.wording)
        cached = cache.get(text)
        try:
            parsed = parse(text) if cached is None else cached
        except (UnreadableText, AmbiguousText) as exc:
            raise self._fail(str(exc)) from None
        if canonical(parsed) != canonical(item):  # every call: items may share a text
            raise self._fail(f"text reads as another {what}: {parsed} != {item}")
        if cached is None:
            if render(self.clause, parsed, self.wording, reorder=False) != text:
                raise self._fail(f"re-rendering the reading does not give the text {text!r}")
            cache[text] = parsed
        return parsed

    def read_state(self, state: EvaluatorState[Any]) -> EvaluatorState[Any]:
        """The state with its rule and scope replaced by their readings (facts untouched)."""
        grounds, norm, scope = unpack(state)
        return EvaluatorState.of(G=grounds, N=self.norm(norm), A=self.scope(scope))

    def certify(self, transition: Transition, gold: Cube) -> Cube:
        """Execute the cube of the read-back states; every cell must equal ``gold``'s."""
        old, new = self.read_state(transition.old), self.read_state(transition.new)
        cube = execute_cube(ADJUDICATOR, old, new)
        if cube != gold:
            cells = cube.cells()
            diff = {k: (v, cells[k]) for k, v in gold.cells().items() if cells[k] != v}
            raise self._fail(f"cube cells change (gold, rewrite): {diff}")
        return cube
