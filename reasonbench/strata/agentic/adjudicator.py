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
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Any

from reasonbench.are.compilation import VIOLATED
from reasonbench.are.layout import Layout, Numbers, layout
from reasonbench.are.model import ReflectiveState, decision_label
from reasonbench.are.oversight import Review, review_weighted
from reasonbench.are.profile import Profile
from reasonbench.are.robust import Margin, certified, weighted_margins
from reasonbench.are.solver import Equilibrium, Solution, equilibrium
from reasonbench.are.specs import ActionSpec
from reasonbench.core.adjudicator import REFER, Adjudicator, register_adjudicator
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState, hybrid
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


class Task(tuple[ActionSpec, ...]):
    """A task's candidate actions with their hash computed once: every cache lookup of the
    adjudicator keys on them, and a plain tuple re-hashes its specs each time. Equal (and
    hashed) as the plain tuple, so either finds the same cache entries."""

    _hash: int

    def __new__(cls, actions: Sequence[ActionSpec]) -> Task:
        task = super().__new__(cls, actions)
        task._hash = tuple.__hash__(task)
        return task

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Task], tuple[tuple[ActionSpec, ...]]]:
        # rebuilt, not restored: a hash is only valid in the process that computed it
        return (Task, (tuple(self),))


def deliberation(
    grounds: Grounds, norms: Norms, authority: Authority, actions: Sequence[ActionSpec]
) -> ReflectiveState:
    """The numeric reflective state of (G, N, A) for the task (hybrid-compatible construction).

    Only the authority's profile enters; its oversight thresholds are read by the review."""
    return _deliberation(grounds, norms, authority.profile, Task(actions))


@lru_cache(maxsize=1024)  # grounds operators and controls rebuild the same base states
def _deliberation(
    grounds: Grounds, norms: Norms, profile: Profile, actions: Task
) -> ReflectiveState:
    return arranged(grounds, norms, actions).numbers(profile).state()


@lru_cache(maxsize=4096)
def arranged(grounds: Grounds, norms: Norms, actions: tuple[ActionSpec, ...]) -> Layout:
    """What is present in (G, N) for the task: shared by every authority a cube or draw meets."""
    return layout(
        claims=(*norms.claims, *grounds.claims),
        relations=(*norms.relations, *grounds.asserted),
        actions=actions,
        findings=dict(grounds.findings),
        priorities=dict(norms.priorities),
        fixed=dict(norms.non_negotiable),
        prohibitions=norms.prohibitions,
        defence=norms.defence,
    )


@dataclass(frozen=True)
class Decision:
    numbers: Numbers  # the constructed state, as arrays
    solution: Solution
    review: Review
    verdict: str
    margins: tuple[Margin, ...]  # each oversight quantity against its threshold

    @cached_property
    def state(self) -> ReflectiveState:
        return self.numbers.state()

    @property
    def certified(self) -> bool:
        """The verdict keeps its margin from every threshold (:func:`are.robust.certified`)."""
        return certified(self.margins)


@lru_cache(maxsize=4096)  # ~20 KB per entry: the states of a unit's draws
def settled(
    grounds: Grounds, norms: Norms, profile: Profile, actions: tuple[ActionSpec, ...]
) -> Equilibrium:
    """The exact equilibrium of (G, N, profile): states that differ only in their oversight
    thresholds (the ``a_oversight`` revisions, their hybrids) share one search."""
    numbers = arranged(grounds, norms, actions).numbers(profile)
    return equilibrium(numbers, energy=numbers.energy)


@lru_cache(maxsize=4096)
def decide(
    grounds: Grounds, norms: Norms, authority: Authority, actions: tuple[ActionSpec, ...]
) -> Decision:
    found = settled(grounds, norms, authority.profile, actions)
    numbers, thresholds = found.state, authority.oversight
    assert isinstance(numbers, Numbers)
    observed = [numbers.violation, *(numbers.override(s) for s, _ in thresholds.protected)]
    solution = found.solution(observed)
    checked = review_weighted(numbers.trusted_weight, solution, thresholds)
    verdict = REFER if checked.fired else decision_label(solution.decision)
    margins = weighted_margins(numbers.trusted_weight, numbers.total_weight, solution, thresholds)
    return Decision(numbers, solution, checked, verdict, margins)


def labels_for(actions: Sequence[ActionSpec]) -> frozenset[str]:
    """``refer`` and the label of every subset of the consequential actions."""
    return _labels(Task(actions))


@lru_cache(maxsize=256)  # one adjudicator per draw, a handful of tasks per build
def _labels(actions: Task) -> frozenset[str]:
    ids = sorted(a.id for a in actions if a.consequential)
    subsets = (c for r in range(len(ids) + 1) for c in combinations(ids, r))
    return frozenset({REFER, *(decision_label(s) for s in subsets)})


class AgenticAdjudicator:
    """Exact ARE verdict for one task (its candidate actions)."""

    def __init__(self, actions: Sequence[ActionSpec]) -> None:
        self.actions = Task(actions)
        self._labels = labels_for(self.actions)

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def decision(self, state: EvaluatorState[Any]) -> Decision:
        return decide(*parts(state), self.actions)

    def adjudicate(self, state: EvaluatorState[Any]) -> str:
        return self.decision(state).verdict

    def certified_cube(self, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> bool:
        """Every cell of the (old, new) cube keeps its margin from every oversight threshold
        (:mod:`reasonbench.are.robust`): no gold label of the case hinges on a float."""
        masks = range(1 << len(old.sources))
        return all(self.decision(hybrid(old, new, m)).certified for m in masks)

    def margins(self, state: EvaluatorState[Any]) -> tuple[Margin, ...]:
        """The verdict's threshold margins (read by the audit, :mod:`reasonbench.audit.margins`)."""
        return self.decision(state).margins


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
    """Two decimals, half up, after rounding to 6: a quantity on a rounding edge (0.125 is
    common with rubric weights) prints the same whatever float noise it carries."""
    if value == float("inf"):
        return "inf"
    return str(Decimal(f"{value + 0.0:.6f}").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def trace(decision: Decision) -> list[str]:
    """A short account of the verdict: decision and margin, oversight, accepted tensions."""
    sol, rev = decision.solution, decision.review
    lines = [f"equilibrium decision: {decision_label(sol.decision)} (Gamma_A {_fmt(sol.gamma)})"]
    if rev.fired:
        lines.append(f"oversight: {', '.join(rev.fired)} (rho {_fmt(rev.rho)})")
    else:
        lines.append(f"oversight: no rule fires (rho {_fmt(rev.rho)})")
    # The relations of the constructed state, read off its arrays (building the state itself
    # for every traced cell showed in the build profile), between the nodes ``ids``.
    x, numbers = sol.x, decision.numbers
    ids, source, target = numbers.layout.ids, numbers.source.tolist(), numbers.target.tolist()
    tensions = [
        f"{ids[u]} {t} {ids[v]}"
        for u, v, t in zip(source, target, numbers.relation_types, strict=True)
        if VIOLATED[t](x[u], x[v])
    ]
    lines.append(f"accepted tensions: {', '.join(tensions) if tensions else 'none'}")
    lines.append(f"verdict: {decision.verdict}")
    return lines
