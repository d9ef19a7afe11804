"""``AgenticStratum``: agent decisions under an exact reflective-equilibrium adjudicator.

Units are concrete cases of the two families of the source paper (a delegated consumer agent,
an enterprise hiring agent): surface details, an environment of tool outcomes, a priority stance
and an instruction authority, drawn per unit from a seeded RNG. States are (grounds, norms,
authority); the context is the task (its candidate actions); verdicts are consequential
decisions or ``refer``. See docs/strata/agentic.md.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from reasonbench.are.cases import CaseFamily
from reasonbench.are.loader import DATA_DIR, FAMILIES, load_family
from reasonbench.are.model import check_state
from reasonbench.core.canonical import canonical_json, parsed_once
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic import adjudicator as adj
from reasonbench.strata.agentic.components import (
    FORMAT,
    Authority,
    Grounds,
    Norms,
    actions_of,
    canonical,
    surface_of,
)
from reasonbench.strata.agentic.control import quarantine_control
from reasonbench.strata.agentic.distractors import add_distractor
from reasonbench.strata.agentic.operators import OPERATORS
from reasonbench.strata.agentic.render import render
from reasonbench.strata.agentic.sampler import sample_case
from reasonbench.strata.agentic.templates import load_templates
from reasonbench.strata.agentic.units import AgenticUnit, make_unit
from reasonbench.strata.base import JSON, Operator, Rendering, Stratum, Transition

N_UNITS = 64
"""Units per stratum, split evenly between the families (ids ``agentic-<family>-<nnn>``)."""


CARD_NOTE = (
    "**Agentic labels and the denominator of ρ.** The agentic adjudicator's oversight rule O2 "
    "divides the violated weight by the weight of the trusted relations (docs/are.md, decision 1), "
    "not by the weight of all relations as the paper reads it. Every gold cell of every agentic "
    "case keeps a margin of at least max(5 % of the threshold, 0.01) from every oversight "
    "threshold, and every main, inverse, permutation, distractor and cardinality cell gives the "
    "same O2 verdict under both readings. Only quarantine-control cells may differ, by design "
    "(the planted untrusted text dilutes the paper's ρ): `reasonbench audit` counts them as "
    "`quarantine_rho_total`."
)
"""The dataset card's paragraph for builds with this stratum (``SupportsCardNote``)."""


class AgenticStratum:
    name = "agentic"
    unit_label = "cases"  # SupportsUnitLabel: the statistics count "agentic cases"
    card_note = CARD_NOTE
    operators: Mapping[str, Operator] = MappingProxyType(OPERATORS)

    def __init__(self, data_dir: Path = DATA_DIR, n_units: int = N_UNITS) -> None:
        self.families = {name: load_family(name, data_dir) for name in FAMILIES}
        self.templates = load_templates(data_dir / "templates.yaml")
        self.template_families: tuple[str, ...] = self.templates.names
        self.n_units = n_units
        self.labels: frozenset[str] = frozenset().union(
            *(adj.labels_for(f.actions) for f in self.families.values())
        )

    def units(self, seed: int) -> list[AgenticUnit]:
        """Unit ``i`` of a family is drawn from ``Random(f"{seed}:agentic:{family}:{i}")``
        (a string seed is hashed with SHA-512: independent of PYTHONHASHSEED and of other units)."""
        out = []
        per_family = [self.n_units // len(FAMILIES)] * len(FAMILIES)
        for k in range(self.n_units - sum(per_family)):
            per_family[k] += 1
        for name, count in zip(FAMILIES, per_family, strict=True):
            for i in range(count):
                unit_id = f"agentic-{name}-{i:03d}"
                rng = random.Random(f"{seed}:agentic:{name}:{i}")
                out.append(make_unit(self.families[name], unit_id, rng))
        return out

    def adjudicator(self, context: Mapping[str, Any]) -> adj.AgenticAdjudicator:
        try:
            key = canonical_json(dict(context))
        except (TypeError, ValueError):  # not JSON: let actions_of name what is wrong
            return adj.AgenticAdjudicator(actions_of(dict(context)))
        return _adjudicator(key)

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
        # Agent decisions have no proof depth: the depth bounds are accepted and not used.
        del min_depth, max_depth
        if not isinstance(unit, AgenticUnit):
            raise TypeError(f"an agentic unit is an AgenticUnit, got {type(unit).__name__}")
        return sample_case(unit, rng, sources, self.operators, operators, aim)

    def state_to_json(self, state: EvaluatorState[Any]) -> JSON:
        grounds, norms, authority = adj.parts(state)
        return {
            "format": FORMAT,
            "grounds": grounds.to_json(),
            "norms": norms.to_json(),
            "authority": authority.to_json(),
        }

    def state_text(self, state: EvaluatorState[Any]) -> str:
        """``SupportsStateText``: :meth:`state_to_json`'s canonical JSON, from the components'
        own (kept on each component), keys in sorted order."""
        grounds, norms, authority = (canonical(c) for c in adj.parts(state))
        return (
            f'{{"authority":{authority},"format":{_FORMAT_TEXT},'
            f'"grounds":{grounds},"norms":{norms}}}'
        )

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]:
        expected = {"format", "grounds", "norms", "authority"}
        if set(data) != expected or data["format"] != FORMAT:
            raise ValueError(f"an agentic state has keys {sorted(expected)} and format {FORMAT!r}")
        grounds, norms, authority = (_PARSE[part](data[part]) for part in PARTS)
        assert isinstance(grounds, Grounds) and isinstance(norms, Norms)
        assert isinstance(authority, Authority)
        # The adjudicator builds states unchecked (ReflectiveState.trusted): check a loaded one
        # once, so a malformed file (a duplicate claim id, say) raises AreError, not a wrong
        # verdict. Actions belong to the task, not the state; the adjudicator adds them.
        check_state(adj.deliberation(grounds, norms, authority, ()), "agentic state")
        return EvaluatorState.of(G=grounds, N=norms, A=authority)

    def family_of(self, context: Mapping[str, Any]) -> CaseFamily:
        """The case family of a context, with the unit's surface details filled in."""
        return _concrete(self.families[str(context["case"])], surface_of(dict(context)))

    def render(
        self, transition: Transition, template_family: str, source_order: tuple[str, ...]
    ) -> Rendering:
        family = self.family_of(transition.context)
        return render(
            transition,
            family.task,
            self.adjudicator(transition.context).actions,  # parsed once per task context
            self.templates.family(template_family),
            template_family,
            source_order,
        )

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        return add_distractor(self.family_of(transition.context), transition, rng)

    def quarantine_control(self, transition: Transition, rng: random.Random) -> Transition | None:
        """The fourth paired control (see :mod:`.control`)."""
        return quarantine_control(self.family_of(transition.context), transition, rng)

    def proof_depth(self, transition: Transition) -> int | None:
        return None

    def trace(self, state: EvaluatorState[Any], context: Mapping[str, Any]) -> list[str]:
        return adj.trace(self.adjudicator(context).decision(state))


PARTS = ("grounds", "norms", "authority")
_FORMAT_TEXT = canonical_json(FORMAT)
# each distinct stored component is parsed once: an audit reads thousands of states whose
# components repeat (a unit's norms, its authorities)
_PARSE: dict[str, Callable[[Any], Grounds | Norms | Authority]] = {
    "grounds": parsed_once(Grounds.from_json),
    "norms": parsed_once(Norms.from_json),
    "authority": parsed_once(Authority.from_json),
}


@lru_cache(maxsize=256)
def _adjudicator(context: str) -> adj.AgenticAdjudicator:
    """One adjudicator per task context (canonical JSON): every draw and audited case asks for
    one, and parsing the context's actions each time showed in the build profile."""
    return adj.AgenticAdjudicator(actions_of(json.loads(context)))


@lru_cache(maxsize=256)
def _concrete(family: CaseFamily, surface: tuple[tuple[str, str], ...]) -> CaseFamily:
    return family.instantiate(dict(surface))


if TYPE_CHECKING:  # mypy checks that the class satisfies the Stratum protocol

    def _conforms(stratum: AgenticStratum) -> Stratum:
        return stratum
