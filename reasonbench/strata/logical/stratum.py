"""``LogicalStratum``: 800 independently sampled Horn-rule worlds behind the Stratum contract."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from reasonbench.core.receipt import Receipt
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import JSON, Operator, Rendering, Stratum, Transition
from reasonbench.strata.logical import adjudicator as adj
from reasonbench.strata.logical.cases import sample_case
from reasonbench.strata.logical.chaining import LABELS, full_depth
from reasonbench.strata.logical.distractors import add_distractor
from reasonbench.strata.logical.operators import OPERATORS
from reasonbench.strata.logical.queries import Want, ambiguous
from reasonbench.strata.logical.render import render
from reasonbench.strata.logical.sampler import DEFAULT_SHAPE, WorldShape, sample_world
from reasonbench.strata.logical.templates import load_templates
from reasonbench.strata.logical.unit import World
from reasonbench.strata.logical.vocabulary import DATA_DIR, load_vocabulary
from reasonbench.strata.logical.world_json import (
    components_from_json,
    components_text,
    components_to_json,
)

N_WORLDS = 800
HELD_OUT_FAMILIES = ("qa",)
"""Template families reserved for the linguistic-shift split (never rendered for training)."""


def _changed(receipt: Receipt) -> bool:
    return not receipt.stable


def _stable(receipt: Receipt) -> bool:
    return receipt.stable


# The protocol's ``aim`` hint, as a filter on each candidate query's executed receipt.
AIMS: dict[str, Want] = {"ambiguous": ambiguous, "changed": _changed, "stable": _stable}


class LogicalStratum:
    """The logical stratum; see docs/strata/logical.md for the world format and semantics."""

    name = "logical"
    unit_label = "worlds"  # SupportsUnitLabel: the card counts "logical worlds"
    labels: frozenset[str] = LABELS

    def __init__(
        self,
        data_dir: Path = DATA_DIR,
        n_units: int = N_WORLDS,
        shape: WorldShape = DEFAULT_SHAPE,
    ) -> None:
        self.vocabulary = load_vocabulary(data_dir / "vocabulary.yaml")
        self.templates = load_templates(data_dir / "templates.yaml")
        self.template_families: tuple[str, ...] = tuple(self.templates)
        self.operators: Mapping[str, Operator] = MappingProxyType(OPERATORS)
        self.n_units = n_units
        self.shape = shape

    def units(self, seed: int) -> list[World]:
        """World ``i`` is drawn from its own RNG seeded by ``"{seed}:logical:{i}"`` (a string
        seed is hashed with SHA-512, so worlds do not depend on PYTHONHASHSEED or on each other)."""
        return [
            sample_world(
                random.Random(f"{seed}:logical:{i}"), self.vocabulary, f"logic-{i:04d}", self.shape
            )
            for i in range(self.n_units)
        ]

    def adjudicator(self, context: Mapping[str, Any]) -> adj.LogicalAdjudicator:
        return adj.LogicalAdjudicator(adj.query_of(context))

    def sample_transition(
        self,
        unit: Any,
        rng: random.Random,
        sources: tuple[str, ...],
        operators: Sequence[str] | None = None,
        *,
        aim: str | None = None,
        min_depth: int | None = None,
        max_depth: int | None = None,
        want: Want | None = None,
    ) -> Transition | None:
        """Revise the world's base state (one operator per source, G, N, A order), then draw a
        query; ``min_depth``/``max_depth`` bound its proof depth and ``want`` filters on its
        executed receipt. ``None`` when no operator applies or no query qualifies."""
        if not isinstance(unit, World):
            raise TypeError(f"a logical unit is a World, got {type(unit).__name__}")
        if want is None and aim is not None:
            want = AIMS[aim]
        return sample_case(
            unit, rng, sources, self.operators, operators, min_depth, max_depth, want
        )

    def state_to_json(self, state: EvaluatorState[Any]) -> JSON:
        return components_to_json(state["G"], state["N"], state["A"])

    def state_text(self, state: EvaluatorState[Any]) -> str:
        """``SupportsStateText``: :meth:`state_to_json`'s canonical JSON, part by part."""
        return components_text(state["G"], state["N"], state["A"])

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]:
        facts, rules, authority = components_from_json(data)
        return EvaluatorState.of(G=facts, N=rules, A=authority)

    def render(
        self, transition: Transition, template_family: str, source_order: tuple[str, ...]
    ) -> Rendering:
        query = adj.query_of(transition.context)
        return render(
            transition, query, template_family, self.templates, self.vocabulary.text, source_order
        )

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        return add_distractor(transition, adj.query_of(transition.context), self.vocabulary, rng)

    def proof_depth(self, transition: Transition) -> int:
        """Max over the old and revised state of the query's minimal depth with every rule
        (mask ignored); 0 for a given fact or an atom neither state derives."""
        query = adj.query_of(transition.context)
        depths = (full_depth(s["G"], s["N"], query) for s in (transition.old, transition.new))
        return max(d or 0 for d in depths)

    def trace(self, state: EvaluatorState[Any], context: Mapping[str, Any]) -> list[str]:
        return adj.trace(state, adj.query_of(context))


if TYPE_CHECKING:  # mypy checks that the class satisfies the Stratum protocol
    _conforms: Stratum = LogicalStratum()
