"""Provenance attribution psi_s(a) (Definition 14): each action's margin split by source.

The terms of :func:`reasonbench.are.certificate.terms` are credited to sources: a relation term
to the channel of the relation's *other* endpoint (the pseudo-source ``structure`` when that is
an action), the anchor term to the instructing channel of an instructed action (``structure``
for an uninstructed action's footprint). Every term goes to exactly one source, so the
contributions sum to the margin mu_a without remainder (Proposition 5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reasonbench.are.certificate import terms
from reasonbench.are.compilation import Vector
from reasonbench.are.model import CHANNELS, STRUCTURE, ReflectiveState

SOURCES = (*CHANNELS, STRUCTURE)


def credited(state: ReflectiveState, claim: str) -> str:
    """s-bar(v): the source a relation term is credited to when ``claim`` is the other end."""
    c = state.claim(claim)
    return STRUCTURE if c.kind == "A" else c.channel


def anchor_source(state: ReflectiveState, claim: str) -> str:
    """s-hat(u): the source of a claim's anchor term."""
    c = state.claim(claim)
    if c.kind == "A":
        return c.instructed or STRUCTURE
    return c.channel


@dataclass(frozen=True)
class Attribution:
    """psi_s(a) for one action, every source listed (zeros included), in SOURCES order."""

    action: str
    margin: float
    by_source: tuple[tuple[str, float], ...]

    def as_dict(self) -> dict[str, float]:
        return dict(self.by_source)


def attribute(state: ReflectiveState, x: Vector, action: str) -> Attribution:
    shares = dict.fromkeys(SOURCES, 0.0)
    margin = 0.0
    for k, value in terms(state, x, action):
        if k is None:
            source = anchor_source(state, action)
        else:
            r = state.relations[k]
            source = credited(state, r.target if r.source == action else r.source)
        shares[source] += value
        margin += value
    return Attribution(action, margin, tuple(shares.items()))


def attribute_decision(state: ReflectiveState, x: Vector) -> Mapping[str, float]:
    """psi_s = sum over every action of psi_s(a): whose commitments carried the decision."""
    total = dict.fromkeys(SOURCES, 0.0)
    for a in state.actions:
        for source, value in attribute(state, x, a).by_source:
            total[source] += value
    return total
