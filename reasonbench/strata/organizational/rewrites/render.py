"""Rendering a policy under a :class:`~reasonbench.strata.organizational.rewrites.wording.Wording`.

The standard layout *is* the benchmark's renderer (``norm_text``); other layouts reuse its
per-item sentences (``item_sentences``) and only move blocks. A reversed order renders an
order-permuted copy of the rule: conditions (deny overrides approve, so their order never
matters) and the parts of each conjunction; exceptions keep their order, which decides.
Prompts are assembled by the benchmark's own ``render_transition`` with the rewritten policy
texts plugged in, so headings, facts and layout stay byte-identical to the benchmark's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.strata.base import Transition
from reasonbench.strata.organizational.model import APPROVE, DENY, Condition, Norm, Scope
from reasonbench.strata.organizational.prompt import render_transition, source_text
from reasonbench.strata.organizational.render import (
    Family,
    item_sentences,
    norm_text,
    scope_text,
    subject_words,
)
from reasonbench.strata.organizational.rewrites.wording import BLOCKS, Wording
from reasonbench.strata.organizational.schema import Clause, FieldSpec

__all__ = ["reordered_norm", "reordered_scope", "rewrite_prompt", "rule_text", "scope_rule_text"]


def _reversed(item: Condition) -> Condition:
    return Condition(tuple(reversed(item.when)), item.outcome)


def reordered_norm(norm: Norm) -> Norm:
    return Norm(
        norm.default,
        tuple(_reversed(c) for c in reversed(norm.conditions)),
        tuple(_reversed(e) for e in norm.exceptions),
    )


def reordered_scope(scope: Scope) -> Scope:
    return Scope(tuple(reversed(scope.tests)))


def _blocks(clause: Clause, norm: Norm, family: Family) -> dict[str, list[str]]:
    words = subject_words(clause)
    items = item_sentences(clause, norm, family)
    n = len(norm.conditions)
    outcomes = {c.outcome for c in norm.conditions}
    has_exceptions = bool(norm.exceptions)
    return {
        "conditions": items[:n],
        "exceptions": items[n:],
        # the same two notes the benchmark renderer writes, under the same conditions
        "deny_precedence": (
            [family["deny_precedence"].format(**words)] if {APPROVE, DENY} <= outcomes else []
        ),
        "default": [family[f"default_{norm.default}"].format(**words)],
        "exception_order": (
            [family["exception_order"].format(**words)] if len(norm.exceptions) > 1 else []
        ),
        # section headings: only where the layout has them and there is an exception section
        **{
            lead: [family[lead].format(**words)] if has_exceptions and lead in family else []
            for lead in ("exceptions_lead", "rules_lead")
        },
    }


def rule_text(clause: Clause, norm: Norm, wording: Wording, reorder: bool = True) -> str:
    """The rule's text under ``wording`` (``reorder=False`` renders ``norm`` in its own order)."""
    if reorder and wording.reverse:
        norm = reordered_norm(norm)
    if wording.layout == BLOCKS:
        return norm_text(clause, norm, wording.family)
    blocks = _blocks(clause, norm, wording.family)
    return " ".join(sentence for block in wording.layout for sentence in blocks[block])


def scope_rule_text(clause: Clause, scope: Scope, wording: Wording, reorder: bool = True) -> str:
    if reorder and wording.reverse:
        scope = reordered_scope(scope)
    return scope_text(clause, scope, wording.family)


def rewrite_prompt(
    clause: Clause,
    specs: Mapping[str, FieldSpec],
    transition: Transition,
    wording: Wording,
    source_order: tuple[str, ...],
) -> str:
    """The benchmark prompt of ``transition`` with its policy (N and A) worded by ``wording``."""

    def text_of(
        clause: Clause, specs: Mapping[str, FieldSpec], source: str, part: Any, family: Family
    ) -> str:
        if source == "N":
            return rule_text(clause, part, wording)
        if source == "A":
            return scope_rule_text(clause, part, wording)
        return source_text(clause, specs, source, part, family)

    family = wording.family
    rendering = render_transition(
        clause, specs, transition, family, wording.family_name, source_order, text_of
    )
    return rendering.text
