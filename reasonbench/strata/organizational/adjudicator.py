"""The trusted organizational adjudicator: authority gate first, then the rule's merits.

Registered with the core as ``"organizational"``. It needs no per-case context: a state carries
the grounds, the rule and the scope, which is all execution needs. ``trace`` explains a verdict
in a few short lines (which scope test failed, which exception or conditions fired) for the
rationale targets.
"""

from __future__ import annotations

from typing import Any

from reasonbench.core.adjudicator import register_adjudicator
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.organizational.model import (
    DENY,
    LABELS,
    REFER,
    Condition,
    Grounds,
    Norm,
    Predicate,
    Scope,
)


def unpack(state: EvaluatorState[Any]) -> tuple[Grounds, Norm, Scope]:
    """The (G, N, A) components, type-checked, so a foreign state fails loudly, not wrongly."""
    if state.sources != GNA:
        raise ValueError(f"organizational states have sources {GNA}, got {state.sources}")
    grounds, norm, scope = state.components
    if not (isinstance(grounds, Grounds) and isinstance(norm, Norm) and isinstance(scope, Scope)):
        raise TypeError("organizational state needs (Grounds, Norm, Scope) components")
    return grounds, norm, scope


class OrganizationalAdjudicator:
    """``refer`` outside the scope, else the rule's ``approve``/``deny``; deterministic."""

    @property
    def labels(self) -> frozenset[str]:
        return LABELS

    def adjudicate(self, state: EvaluatorState[Any]) -> str:
        grounds, norm, scope = unpack(state)
        values = grounds.mapping
        if not scope.admits(values):
            return REFER
        return norm.decide(values)


@register_adjudicator("organizational")
def make_adjudicator(**_: Any) -> OrganizationalAdjudicator:
    return ADJUDICATOR


ADJUDICATOR = OrganizationalAdjudicator()


def _shown(predicate: Predicate, grounds: Grounds) -> str:
    value = grounds[predicate.field]
    shown = list(predicate.value) if isinstance(predicate.value, tuple) else predicate.value
    return f"{predicate.field}={value!r} {predicate.op} {shown!r}".replace("'", "")


def _fired(item: Condition, grounds: Grounds) -> str:
    return " and ".join(_shown(p, grounds) for p in item.when)


def trace(state: EvaluatorState[Any]) -> list[str]:
    """A short account of the verdict: the failing scope test, or what fired on the merits."""
    grounds, norm, scope = unpack(state)
    values = grounds.mapping
    for test in scope.tests:
        if not test.test(values):
            return [f"outside scope: not {_shown(test, grounds)}", "verdict: refer"]
    lines = [f"in scope: {len(scope.tests)} scope test(s) hold"]
    for i, exception in enumerate(norm.exceptions, start=1):
        if exception.fires(values):
            lines.append(f"exception {i} fires: {_fired(exception, grounds)}")
            lines.append(f"verdict: {exception.outcome}")
            return lines
    fired = [c for c in norm.conditions if c.fires(values)]
    for condition in fired:
        lines.append(f"{condition.outcome} condition fires: {_fired(condition, grounds)}")
    verdict = norm.decide(values)
    if not fired:
        lines.append(f"no condition fires: default {norm.default}")
    elif any(c.outcome == DENY for c in fired) and len({c.outcome for c in fired}) > 1:
        lines.append("deny overrides approve")
    lines.append(f"verdict: {verdict}")
    return lines
