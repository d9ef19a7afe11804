"""Environments of a case family: a seeded sampler over tool outcomes, and the state they yield.

An environment xi fixes, for every tool of the family, the outcome executing it would produce
(drawn independently from each tool's outcome model, as in the paper's studies). The agent
knows what it has observed: the outcomes of the tools it has run. :func:`case_state` builds the
numeric reflective state of a family after observing some tools, under a priority stance and an
instruction authority, through the provenance construction.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from reasonbench.are.cases import CaseFamily, Outcome
from reasonbench.are.model import ReflectiveState
from reasonbench.are.provenance import construct
from reasonbench.are.specs import ClaimSpec, RelationSpec


@dataclass(frozen=True)
class Environment:
    """xi: the outcome of every tool (tool name, outcome name), in the family's tool order."""

    family: str
    outcomes: tuple[tuple[str, str], ...]

    def outcome(self, tool: str) -> str:
        return dict(self.outcomes)[tool]


def sample_environment(family: CaseFamily, rng: random.Random) -> Environment:
    """Each tool's outcome drawn from its outcome model (one ``rng.random()`` per tool)."""
    chosen = []
    for tool in family.tools:
        draw, acc = rng.random(), 0.0
        pick = tool.outcomes[-1]
        for o in tool.outcomes:
            acc += o.p
            if draw < acc:
                pick = o
                break
        chosen.append((tool.name, pick.name))
    return Environment(family.name, tuple(chosen))


@dataclass(frozen=True)
class Observation:
    """What observed tool outcomes add to the grounds."""

    claims: tuple[ClaimSpec, ...]
    asserted: tuple[RelationSpec, ...]
    findings: tuple[tuple[str, float], ...]


def observe(family: CaseFamily, observed: Iterable[tuple[str, str]]) -> Observation:
    """Background claims plus what the observed (tool, outcome) pairs reveal, in family order."""
    revealed: set[str] = set()
    findings: dict[str, float] = {}
    for tool, outcome in observed:
        o: Outcome = family.tool(tool).outcome(outcome)
        revealed.update(o.reveals)
        findings.update(o.findings)
    claims = (*family.background, *(c for c in family.evidence if c.id in revealed))
    ids = {c.id for c in claims}
    asserted = tuple(r for r in family.asserted if r.source in ids or r.target in ids)
    return Observation(tuple(claims), asserted, tuple(sorted(findings.items())))


def case_state(
    family: CaseFamily,
    observed: Iterable[tuple[str, str]] | Mapping[str, str],
    stance: str = "balanced",
    authority: float = 1.0,
    hard_prohibitions: bool = False,
) -> ReflectiveState:
    """The family's state after observing ``observed`` (tool -> outcome), for a stance and a
    multiplier on every instructing channel's authority (the paper's governance experiments)."""
    pairs = observed.items() if isinstance(observed, Mapping) else observed
    seen = observe(family, pairs)
    profile = family.profile
    channels = sorted({c for _, c in profile.instructions})
    profile = replace(profile, authority=tuple((c, authority) for c in channels))
    banned = family.prohibitions + (family.optional_prohibitions if hard_prohibitions else ())
    return construct(
        claims=(*family.claims, *seen.claims),
        relations=(*family.relations, *seen.asserted),
        actions=family.actions,
        profile=profile,
        findings=dict(seen.findings),
        priorities=dict(family.stance(stance)) if family.stances else {},
        fixed=dict(family.non_negotiable),
        prohibitions=banned,
        defence=family.defence,
    )
