"""Irrelevant additions for the distractor control, certified by executing the whole cube.

A distractor is one of the family's irrelevant claims, added identically to the old and the
revised state: a background claim to both grounds, or a principle to both norms. No relation
reaches it, so it only shifts the energy by a constant; :func:`add_distractor` still executes
all 8 cells before and after and returns ``None`` rather than an uncertified distractor.
"""

from __future__ import annotations

import random
from dataclasses import replace

from reasonbench.are.cases import CaseFamily
from reasonbench.are.specs import ClaimSpec
from reasonbench.core.cube import execute_cube
from reasonbench.strata.agentic.adjudicator import AgenticAdjudicator
from reasonbench.strata.agentic.components import Grounds, Norms
from reasonbench.strata.base import Transition


def present_claims(transition: Transition) -> set[str]:
    """Ids of the claims in either endpoint (a distractor must be new to both)."""
    ids: set[str] = set()
    for state in (transition.old, transition.new):
        grounds, norms = state["G"], state["N"]
        assert isinstance(grounds, Grounds) and isinstance(norms, Norms)
        ids.update(c.id for c in (*grounds.claims, *norms.claims))
    return ids


def with_claim(transition: Transition, claim: ClaimSpec) -> Transition:
    """``claim`` added to both endpoints: to the grounds (kind B) or the norms (kind P)."""
    states = []
    for state in (transition.old, transition.new):
        if claim.kind == "B":
            grounds = state["G"]
            assert isinstance(grounds, Grounds)
            states.append(state.replace(G=replace(grounds, claims=(*grounds.claims, claim))))
        else:
            norms = state["N"]
            assert isinstance(norms, Norms)
            states.append(state.replace(N=replace(norms, claims=(*norms.claims, claim))))
    return replace(transition, old=states[0], new=states[1])


def add_distractor(
    family: CaseFamily, transition: Transition, rng: random.Random
) -> Transition | None:
    present = present_claims(transition)
    options = [c for c in family.distractors if c.id not in present]
    if not options:
        return None
    adjudicator = AgenticAdjudicator(family.actions)
    before = execute_cube(adjudicator, transition.old, transition.new)
    rng.shuffle(options)
    for claim in options:
        candidate = with_claim(transition, claim)
        if execute_cube(adjudicator, candidate.old, candidate.new) == before:
            return candidate
    return None
