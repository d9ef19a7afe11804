"""The trusted adjudicator: an extension point (Protocol) plus a registry of named factories.

An adjudicator is deterministic: the same state always yields the same verdict. Its declared
label set always contains ``refer`` (no authority => the case escalates, never a merits ruling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from reasonbench.core.state import EvaluatorState
from reasonbench.registry import Registry

REFER = "refer"


@runtime_checkable
class Adjudicator(Protocol):
    """Deterministic map from an evaluator state to a verdict in ``labels``."""

    @property
    def labels(self) -> frozenset[str]: ...

    def adjudicate(self, state: EvaluatorState[Any]) -> str: ...


def check_verdict(adjudicator: Adjudicator, verdict: str) -> str:
    """Return ``verdict`` or raise if it lies outside the adjudicator's declared labels."""
    if verdict not in adjudicator.labels:
        raise ValueError(
            f"adjudicator {type(adjudicator).__name__} returned {verdict!r}, "
            f"outside its labels {sorted(adjudicator.labels)}"
        )
    return verdict


ADJUDICATORS: Registry[Callable[..., Adjudicator]] = Registry("adjudicator")
"""Named adjudicator factories, one per stratum (each stratum module registers its own)."""


def register_adjudicator(
    name: str,
) -> Callable[[Callable[..., Adjudicator]], Callable[..., Adjudicator]]:
    """Decorator: register a factory under ``name`` (one name, one factory)."""
    return ADJUDICATORS.register(name)


def get_adjudicator(name: str, **kwargs: Any) -> Adjudicator:
    """Build the registered adjudicator ``name``; the error lists the known names."""
    return ADJUDICATORS.get(name)(**kwargs)


def registered_adjudicators() -> tuple[str, ...]:
    return tuple(sorted(ADJUDICATORS.names()))
