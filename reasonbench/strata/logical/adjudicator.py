"""The trusted adjudicator of the logical stratum (registered as ``"logical"``) and its traces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.core.adjudicator import REFER, Adjudicator, register_adjudicator
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.logical.chaining import (
    HOLDS,
    LABELS,
    Instance,
    closure,
    proof,
    verdict,
)
from reasonbench.strata.logical.world import Atom, atom_str
from reasonbench.strata.logical.world_json import atom_from_json


@dataclass(frozen=True)
class LogicalAdjudicator:
    """Verdict on one query atom: ``holds`` / ``refer`` / ``fails`` (see chaining.py)."""

    query: Atom

    @property
    def labels(self) -> frozenset[str]:
        return LABELS

    def adjudicate(self, state: EvaluatorState[Any]) -> str:
        return verdict(state["G"], state["N"], state["A"], self.query)


def query_of(context: Mapping[str, Any]) -> Atom:
    """The query of a case context ``{"query": ["kind", "bob"]}``; ``ValueError`` if malformed."""
    if "query" not in context:
        raise ValueError(f"a logical case context needs a 'query', got keys {sorted(context)}")
    return atom_from_json(context["query"])


@register_adjudicator("logical")
def logical_adjudicator(query: Sequence[str]) -> Adjudicator:
    """Factory for ``get_adjudicator("logical", query=["kind", "bob"])``."""
    return LogicalAdjudicator(atom_from_json(list(query)))


def _step(instance: Instance) -> str:
    rule_id, premises, head = instance
    return f"R{rule_id}: {' & '.join(atom_str(p) for p in premises)} -> {atom_str(head)}"


def trace(state: EvaluatorState[Any], query: Atom) -> list[str]:
    """The derivation behind the verdict, in the formal notation, premises before uses."""
    facts, rules, mask = state["G"], state["N"], state["A"]
    shown = atom_str(query)
    result = verdict(facts, rules, mask, query)
    if query in facts:
        return [f"given: {shown}", f"verdict: {HOLDS}"]
    if result == HOLDS:
        allowed = closure(facts, rules, mask)
        depth = allowed.depth[query]
        return [
            *map(_step, proof(allowed, query)),
            f"verdict: {HOLDS} (authorised rules, depth {depth})",
        ]
    if result == REFER:
        steps = proof(closure(facts, rules), query)
        outside = sorted({s[0] for s in steps} - set(mask.allowed))
        return [
            f"no derivation of {shown} with authorised rules",
            *map(_step, steps),
            f"needs rule(s) outside authority: {', '.join(f'R{i}' for i in outside)}",
            f"verdict: {REFER}",
        ]
    concluding = sorted({r.id for r in rules.rules if r.conclusion[0] == query[0]})
    reason = f"rules concluding {query[0]}: {', '.join(f'R{i}' for i in concluding)}, none fires"
    return [
        f"no derivation of {shown} even with every rule",
        reason if concluding else f"no rule concludes {query[0]}",
        f"verdict: {result}",
    ]
