"""The trusted adjudicator of the agentic stratum (registered as ``"agentic"``).

A state (G, N, A) and the task's actions go through the provenance construction to a numeric
reflective state; the exact solver finds its global equilibrium and Gamma_A with the oversight
observables; the verdict is ``refer`` when an oversight rule fires, and otherwise the label of
the consequential decision (action ids joined by ``+`` in sorted order, ``no_action`` if none).
Decisions are cached by state: a cube's hybrids repeat components, and the audit re-executes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from reasonbench.are.compilation import VIOLATED
from reasonbench.are.model import ReflectiveState, decision_label
from reasonbench.are.oversight import Review, oversee
from reasonbench.are.provenance import construct
from reasonbench.are.solver import Solution
from reasonbench.are.specs import ActionSpec
from reasonbench.core.adjudicator import REFER, Adjudicator, register_adjudicator
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.components import Authority, Grounds, Norms, actions_of


def parts(state: EvaluatorState[Any]) -> tuple[Grounds, Norms, Authority]:
    """The (G, N, A) components, type-checked, so a foreign state fails loudly, not wrongly."""
    if state.sources != GNA:
        raise ValueError(f"agentic states have sources {GNA}, got {state.sources}")
    grounds, norms, authority = state.components
    if not (
        isinstance(grounds, Grounds)
        and isinstance(norms, Norms)
        and isinstance(authority, Authority)
    ):
        raise TypeError("an agentic state needs (Grounds, Norms, Authority) components")
    return grounds, norms, authority


def deliberation(
    grounds: Grounds, norms: Norms, authority: Authority, actions: Sequence[ActionSpec]
) -> ReflectiveState:
    """The numeric reflective state of (G, N, A) for the task (hybrid-compatible construction)."""
    return construct(
        claims=(*norms.claims, *grounds.claims),
        relations=(*norms.relations, *grounds.asserted),
        actions=actions,
        profile=authority.profile,
        findings=dict(grounds.findings),
        priorities=dict(norms.priorities),
        fixed=dict(norms.non_negotiable),
        prohibitions=norms.prohibitions,
        defence=norms.defence,
    )


@dataclass(frozen=True)
class Decision:
    state: ReflectiveState
    solution: Solution
    review: Review
    verdict: str


@lru_cache(maxsize=2048)  # ~20 KB per entry; a draw and its cube reuse a handful
def decide(
    grounds: Grounds, norms: Norms, authority: Authority, actions: tuple[ActionSpec, ...]
) -> Decision:
    state = deliberation(grounds, norms, authority, actions)
    solution, review = oversee(state, authority.oversight)
    verdict = REFER if review.fired else decision_label(solution.decision)
    return Decision(state, solution, review, verdict)


def labels_for(actions: Sequence[ActionSpec]) -> frozenset[str]:
    """``refer`` and the label of every subset of the consequential actions."""
    ids = sorted(a.id for a in actions if a.consequential)
    subsets = (c for r in range(len(ids) + 1) for c in combinations(ids, r))
    return frozenset({REFER, *(decision_label(s) for s in subsets)})


class AgenticAdjudicator:
    """Exact ARE verdict for one task (its candidate actions)."""

    def __init__(self, actions: Sequence[ActionSpec]) -> None:
        self.actions = tuple(actions)
        self._labels = labels_for(self.actions)

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def decision(self, state: EvaluatorState[Any]) -> Decision:
        return decide(*parts(state), self.actions)

    def adjudicate(self, state: EvaluatorState[Any]) -> str:
        return self.decision(state).verdict


@register_adjudicator("agentic")
def agentic_adjudicator(
    actions: Sequence[Mapping[str, Any]],
    case: str = "",
    surface: Mapping[str, str] | None = None,
) -> Adjudicator:
    """Factory for ``get_adjudicator("agentic", **context)`` (the case context's keys)."""
    context = {"case": case, "surface": dict(surface or {}), "actions": list(actions)}
    return AgenticAdjudicator(actions_of(context))


def _fmt(value: float) -> str:
    return "inf" if value == float("inf") else f"{value:.2f}"


def trace(decision: Decision) -> list[str]:
    """A short account of the verdict: decision and margin, oversight, accepted tensions."""
    s, sol, rev = decision.state, decision.solution, decision.review
    lines = [f"equilibrium decision: {decision_label(sol.decision)} (Gamma_A {_fmt(sol.gamma)})"]
    if rev.fired:
        lines.append(f"oversight: {', '.join(rev.fired)} (rho {_fmt(rev.rho)})")
    else:
        lines.append(f"oversight: no rule fires (rho {_fmt(rev.rho)})")
    x = sol.x
    tensions = [
        f"{r.source} {r.type} {r.target}"
        for r in s.relations
        if VIOLATED[r.type](x[s.index[r.source]], x[s.index[r.target]])
    ]
    lines.append(f"accepted tensions: {', '.join(tensions) if tensions else 'none'}")
    lines.append(f"verdict: {decision.verdict}")
    return lines
