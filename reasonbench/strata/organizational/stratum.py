"""``OrganizationalStratum``: the :class:`reasonbench.strata.base.Stratum` of policy clauses.

Units are the audited clauses of ``data/clauses``; states are (grounds, rule, scope); the
adjudicator gates on the scope (``refer``) before ruling on the merits (``approve``/``deny``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reasonbench.core.adjudicator import Adjudicator
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator, Rendering, Stratum, Transition
from reasonbench.strata.organizational import adjudicator as adjudication
from reasonbench.strata.organizational import compose, distractors, serialize
from reasonbench.strata.organizational.loader import ClauseSet, load_clause_set
from reasonbench.strata.organizational.model import LABELS
from reasonbench.strata.organizational.operators import OPERATORS
from reasonbench.strata.organizational.prompt import render_transition
from reasonbench.strata.organizational.schema import Clause, FieldSpec
from reasonbench.strata.organizational.templates import load_templates
from reasonbench.strata.template_set import TemplateSet


class OrganizationalStratum:
    """45 policy clauses as executable (grounds, norm, authority) units."""

    name = "organizational"
    unit_label = "clauses"  # SupportsUnitLabel: the card counts "organizational clauses"
    labels: frozenset[str] = LABELS
    operators: Mapping[str, Operator] = OPERATORS

    def __init__(self, data_dir: Path | str | None = None) -> None:
        self.clause_set: ClauseSet = load_clause_set(data_dir)
        self.templates: TemplateSet = load_templates(data_dir)
        self.template_families: tuple[str, ...] = self.templates.names
        self._by_id = {c.unit_id: c for c in self.clause_set.clauses}
        self._pool = self.clause_set.distractor_fields

    def units(self, seed: int) -> Sequence[Clause]:
        """The clauses, sorted by ``unit_id``; the set is fixed data, so ``seed`` is unused."""
        return self.clause_set.clauses

    def clause(self, unit: Clause | str) -> Clause:
        unit_id = unit if isinstance(unit, str) else unit.unit_id
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise KeyError(f"unknown organizational unit {unit_id!r}") from None

    def adjudicator(self, context: Mapping[str, Any]) -> Adjudicator:
        return adjudication.ADJUDICATOR

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
    ) -> Transition | None:
        # Clauses have no proof depth, so the depth bounds are accepted and not used; the
        # composer steers every draw toward revisions that matter, and aim="ambiguous" further
        # toward receipt-ambiguous ones ("changed"/"stable" need no help: both are common).
        del min_depth, max_depth
        return compose.sample_transition(self.clause(unit), rng, sources, operators, aim)

    def state_to_json(self, state: EvaluatorState[Any]) -> dict[str, Any]:
        return serialize.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]:
        return serialize.state_from_json(data)

    def specs(self, clause: Clause) -> dict[str, FieldSpec]:
        """Field specs for rendering: the clause schema plus the distractor pool."""
        return {**{f.name: f for f in self._pool}, **clause.by_name}

    def render(
        self, transition: Transition, template_family: str, source_order: tuple[str, ...]
    ) -> Rendering:
        clause = self.clause(transition.unit_id)
        family = self.templates.family(template_family)
        return render_transition(
            clause, self.specs(clause), transition, family, template_family, source_order
        )

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        clause = self.clause(transition.unit_id)
        return distractors.add_distractor(clause, self._pool, transition, rng)

    def proof_depth(self, transition: Transition) -> int | None:
        return None

    def trace(self, state: EvaluatorState[Any], context: Mapping[str, Any]) -> list[str]:
        return adjudication.trace(state)


if TYPE_CHECKING:  # mypy proves the class satisfies the Stratum protocol

    def _conforms(stratum: OrganizationalStratum) -> Stratum:
        return stratum
