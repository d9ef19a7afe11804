"""Units of the agentic stratum and the base states drawn from them.

A unit is one concrete case of a family: surface details (the product and merchant, the company
and role), an environment xi (the outcome every tool would return), a priority stance and an
instruction authority. Units are drawn from a per-unit seeded RNG, so they do not depend on
each other or on PYTHONHASHSEED. A base state (per draw) observes a random subset of the tools;
operators then revise it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from reasonbench.are.cases import CaseFamily
from reasonbench.are.environment import Environment, observe, sample_environment
from reasonbench.are.specs import ClaimSpec, RelationSpec
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.agentic.components import Authority, Grounds, Norms, context_of

OBSERVE = 0.6  # chance a tool has been run in a base state
BALANCED_SHARE = 0.4  # chance a unit keeps the family's first (balanced) stance
PLAIN_AUTHORITY = 0.55  # chance a unit keeps the family's first instruction authority


@dataclass(frozen=True)
class AgenticUnit:
    unit_id: str
    family: CaseFamily  # instantiated: texts carry this unit's surface details
    surface: tuple[tuple[str, str], ...]
    environment: Environment
    stance: str
    authority: float

    @cached_property
    def probes(self) -> dict[tuple[str, frozenset[str]], bool]:
        """Memo of the draw-independent probes (``ambiguity.capable``, ``sampler.lively``),
        by probe and operator set."""
        return {}

    @property
    def context(self) -> dict[str, Any]:
        return context_of(self.family.name, self.surface, self.family.actions)

    @cached_property
    def base_components(self) -> tuple[Norms, Authority]:
        """The norms and authority that every base state of this unit starts from, built once:
        the adjudicator's caches, keyed on components, then hash them once and find them by
        identity instead of comparing a fresh, equal copy field by field at every draw."""
        return norms_for(self.family, self.stance), authority_for(self.family, self.authority)

    @cached_property
    def observed_grounds(self) -> dict[tuple[tuple[str, str], ...], Grounds]:
        """Memo of the base grounds per observed subset of the tools (at most 2^tools)."""
        return {}


def make_unit(family: CaseFamily, unit_id: str, rng: random.Random) -> AgenticUnit:
    values = tuple((key, rng.choice(options)) for key, options in family.surface)
    concrete = family.instantiate(dict(values))
    environment = sample_environment(concrete, rng)
    names = [name for name, _ in family.stances] or ["balanced"]
    stance = names[0] if rng.random() < BALANCED_SHARE else rng.choice(names)
    levels = family.authority_levels
    authority = levels[0] if rng.random() < PLAIN_AUTHORITY else rng.choice(levels)
    return AgenticUnit(unit_id, concrete, tuple(sorted(values)), environment, stance, authority)


def grounds_for(
    family: CaseFamily,
    observed: tuple[tuple[str, str], ...],
    extra: tuple[ClaimSpec, ...] = (),
    extra_asserted: tuple[RelationSpec, ...] = (),
) -> Grounds:
    """Grounds after observing ``observed`` (kept in tool order), plus claims added by operators
    (injected content, distractors) with the relations they assert."""
    order = {t.name: i for i, t in enumerate(family.tools)}
    observed = tuple(sorted(observed, key=lambda p: order[p[0]]))
    seen = observe(family, observed)
    return Grounds(
        (*seen.claims, *extra), (*seen.asserted, *extra_asserted), seen.findings, observed
    )


def extras(
    family: CaseFamily, grounds: Grounds
) -> tuple[tuple[ClaimSpec, ...], tuple[RelationSpec, ...]]:
    """The claims of ``grounds`` that no tool revealed (injected, distractors), and their
    relations: what survives when operators re-derive the grounds from other observations."""
    native = {c.id for c in (*family.background, *family.evidence)}
    claims = tuple(c for c in grounds.claims if c.id not in native)
    ids = {c.id for c in claims}
    asserted = tuple(r for r in grounds.asserted if r.source in ids or r.target in ids)
    return claims, asserted


def norms_for(family: CaseFamily, stance: str) -> Norms:
    priorities = family.stance(stance) if family.stances else ()
    return Norms(
        family.claims,
        family.relations,
        tuple(p for p in priorities if p[1] != 1.0),
        family.non_negotiable,
        family.prohibitions,
        family.defence,
    )


def authority_for(family: CaseFamily, level: float) -> Authority:
    channels = sorted({c for _, c in family.profile.instructions})
    authority = tuple((c, level) for c in channels) if level != 1.0 else ()
    return Authority(replace(family.profile, authority=authority), family.oversight)


def base_state(unit: AgenticUnit, rng: random.Random) -> EvaluatorState[Any]:
    """The unit's norms and authority, with a random subset of its tools observed."""
    observed = tuple(
        (tool, outcome) for tool, outcome in unit.environment.outcomes if rng.random() < OBSERVE
    )
    grounds = unit.observed_grounds.get(observed)
    if grounds is None:
        grounds = unit.observed_grounds[observed] = grounds_for(unit.family, observed)
    norms, authority = unit.base_components
    return EvaluatorState.of(G=grounds, N=norms, A=authority)
