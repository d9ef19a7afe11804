"""Case families: the typed form of ``data/are/<family>.yaml`` (loaded by :mod:`.loader`).

A family is one deliberation problem of the source paper (a delegated consumer agent, an
enterprise hiring agent): the task's candidate actions, the operator's and user's principles,
the agent's judgments, the claims its tools may reveal (with the outcome model of each tool),
the relations among all of them, the harness profile and oversight, and the material mutation
operators draw from (optional relations and prohibitions, priority stances, authority levels,
injected content, irrelevant claims). Texts may use the family's ``surface`` placeholders
(``{product}``, ``{role}``...), filled per unit by :meth:`CaseFamily.instantiate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from reasonbench.are.oversight import Thresholds
from reasonbench.are.profile import Profile
from reasonbench.are.specs import ActionSpec, ClaimSpec, RelationSpec


@dataclass(frozen=True)
class Outcome:
    """One outcome of a tool: its probability, the claims it reveals, the anchors it computes."""

    name: str
    p: float
    reveals: tuple[str, ...]
    findings: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Tool:
    name: str
    text: str
    cost: float
    outcomes: tuple[Outcome, ...]

    def outcome(self, name: str) -> Outcome:
        for o in self.outcomes:
            if o.name == name:
                return o
        raise KeyError(f"tool {self.name!r} has no outcome {name!r}")


@dataclass(frozen=True)
class Injection:
    """Planted untrusted content and the relations it asserts (Q2-shaped by validation)."""

    claim: ClaimSpec
    asserts: tuple[RelationSpec, ...]


@dataclass(frozen=True)
class CaseFamily:
    name: str
    title: str
    task: str
    surface: tuple[tuple[str, tuple[str, ...]], ...]
    actions: tuple[ActionSpec, ...]
    claims: tuple[ClaimSpec, ...]  # principles and judgments: the norms' claims
    background: tuple[ClaimSpec, ...]  # known before any tool runs (grounds)
    evidence: tuple[ClaimSpec, ...]  # what tools may reveal (grounds, when observed)
    relations: tuple[RelationSpec, ...]  # the operator's and the agent's relations (norms)
    asserted: tuple[RelationSpec, ...]  # relations asserted by evidence content (grounds)
    non_negotiable: tuple[tuple[str, int], ...]
    prohibitions: tuple[tuple[str, str], ...]
    defence: str | None
    profile: Profile
    oversight: Thresholds
    tools: tuple[Tool, ...]
    optional_relations: tuple[RelationSpec, ...] = ()
    optional_prohibitions: tuple[tuple[str, str], ...] = ()
    hard_candidates: tuple[str, ...] = ()
    stances: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    authority_levels: tuple[float, ...] = (1.0,)
    injections: tuple[Injection, ...] = ()
    distractors: tuple[ClaimSpec, ...] = ()

    def tool(self, name: str) -> Tool:
        for t in self.tools:
            if t.name == name:
                return t
        raise KeyError(f"family {self.name!r} has no tool {name!r}")

    def stance(self, name: str) -> tuple[tuple[str, float], ...]:
        return dict(self.stances)[name]

    @property
    def claim_pool(self) -> dict[str, ClaimSpec]:
        """Every claim the family can hold, by id (injections and distractors included)."""
        pool = {c.id: c for c in (*self.claims, *self.background, *self.evidence)}
        pool.update((i.claim.id, i.claim) for i in self.injections)
        pool.update((c.id, c) for c in self.distractors)
        return pool

    def instantiate(self, values: Mapping[str, Any]) -> CaseFamily:
        """The family with every text's ``{placeholder}`` filled from ``values``."""

        def claim(c: ClaimSpec) -> ClaimSpec:
            return replace(c, text=c.text.format_map(values))

        return replace(
            self,
            title=self.title.format_map(values),
            task=self.task.format_map(values),
            actions=tuple(replace(a, text=a.text.format_map(values)) for a in self.actions),
            claims=tuple(map(claim, self.claims)),
            background=tuple(map(claim, self.background)),
            evidence=tuple(map(claim, self.evidence)),
            tools=tuple(replace(t, text=t.text.format_map(values)) for t in self.tools),
            injections=tuple(replace(i, claim=claim(i.claim)) for i in self.injections),
            distractors=tuple(map(claim, self.distractors)),
        )
