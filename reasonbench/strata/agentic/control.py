"""The fourth paired control: quarantined injections (Theorem 4) change nothing.

:func:`quarantine_control` adds planted untrusted text (the family's injections) to the grounds
of *both* the old and the revised state, and returns the controlled transition only when the
quarantine conditions Q1-Q3 hold in every one of the 2^3 cells (each hybrid without the text
against the same hybrid with it); where an authority trusts untrusted text more than the
harness's defence can outweigh, the planted text enters at a lower anchor (Q3's bound). Then,
by the theorem, every cell's global equilibria are the
old ones with the injected claims rejected: decisions, Gamma_A and the oversight quantities are
unchanged, so the gold cube — endpoints and receipt included — is identical.

The control kind ``quarantine`` (:mod:`reasonbench.controls.builtin`) is built on this function;
its relation is the permutation and distractor controls' one: the endpoints and the receipt
family of the two predictions must coincide.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from reasonbench.are.cases import CaseFamily, Injection
from reasonbench.are.model import ReflectiveState
from reasonbench.are.quarantine import check_quarantine, defences
from reasonbench.core.sources import full_mask
from reasonbench.core.state import EvaluatorState, hybrid
from reasonbench.strata.agentic.adjudicator import AgenticAdjudicator, deliberation, parts
from reasonbench.strata.agentic.components import Grounds
from reasonbench.strata.base import Transition


def _inject(state: EvaluatorState[object], chosen: list[Injection]) -> EvaluatorState[object]:
    grounds = state["G"]
    assert isinstance(grounds, Grounds)
    return state.replace(
        G=replace(
            grounds,
            claims=(*grounds.claims, *(i.claim for i in chosen)),
            asserted=(*grounds.asserted, *(r for i in chosen for r in i.asserts)),
        )
    )


def quarantined_everywhere(family: CaseFamily, plain: Transition, injected: Transition) -> bool:
    """Q1-Q3 (and Definition 12) hold between every cell of ``plain`` and of ``injected``."""
    for mask in range(full_mask(3) + 1):
        base = deliberation(*parts(hybrid(plain.old, plain.new, mask)), family.actions)
        perturbed = deliberation(*parts(hybrid(injected.old, injected.new, mask)), family.actions)
        if not check_quarantine(base, perturbed).holds:
            return False
    return True


def quarantine_control(
    family: CaseFamily, transition: Transition, rng: random.Random, count: int = 2
) -> Transition | None:
    """``transition`` with up to ``count`` injections in both grounds, certified by Q1-Q3 in
    every cell; ``None`` when no injection is left to add or a condition fails everywhere.

    Planted text adds relations, and the paper's reading of rho (over *all* relations) is
    diluted by them, though the project's rho is not (docs/are.md). So the rng's choice is
    tried first, then each of its injections alone, then every other one alone, and the first
    choice whose every cell stays certified under both readings is taken; when none is, the
    first that meets Q1-Q3 (its labels then rest on the project's reading, as the audit
    reports)."""
    present: set[str] = set()
    for state in (transition.old, transition.new):
        present.update(c.id for c in parts(state)[0].claims)
    options = [i for i in family.injections if i.claim.id not in present]
    if not options:
        return None
    chosen = rng.sample(options, min(count, len(options)))
    picks = [chosen, *([i] for i in chosen if len(chosen) > 1)]
    picks += [[i] for i in options if i not in chosen]
    adjudicator = AgenticAdjudicator(family.actions)
    fallback: Transition | None = None
    for pick in picks:
        controlled = _controlled(family, transition, pick)
        if not quarantined_everywhere(family, transition, controlled):
            continue
        if adjudicator.certified_cube(controlled.old, controlled.new):
            return controlled
        fallback = fallback or controlled
    return fallback


def _controlled(family: CaseFamily, transition: Transition, pick: list[Injection]) -> Transition:
    """``transition`` with the injections of ``pick`` planted, anchors tempered (Q3)."""
    planted = replace(
        transition, old=_inject(transition.old, pick), new=_inject(transition.new, pick)
    )
    pick = _tempered(family, planted, pick)
    return replace(transition, old=_inject(transition.old, pick), new=_inject(transition.new, pick))


def q3_bound(state: ReflectiveState, claim_id: str) -> float | None:
    """The anchor below which ``claim_id`` meets Q3 in ``state``, 10% under and to 2 decimals:
    a0 < (w + lambda) / (2 kappa) for the heaviest non-negotiable attack w on it. ``None`` when
    nothing non-negotiable attacks it; 1 when nothing needs lowering (kappa 0 or a high bound)."""
    c = state.claim(claim_id)
    weights = defences(state, claim_id)
    if not weights:
        return None
    if c.stubbornness <= 0:
        return 1.0
    limit = (max(weights) + c.systematicity) / (2 * c.stubbornness)
    return min(1.0, math.floor(limit * 90) / 100)


def tempered(injection: Injection, bound: float) -> Injection:
    """``injection`` with its anchor lowered to ``bound`` where it is higher."""
    claim = replace(injection.claim, anchor=min(injection.claim.anchor, bound))
    return replace(injection, claim=claim)


def _tempered(
    family: CaseFamily, controlled: Transition, chosen: list[Injection]
) -> list[Injection]:
    """The injections with anchors lowered, where needed, below Q3's bound in every cell (an
    authority that trusts untrusted text more would otherwise let planted text past)."""
    bound = {i.claim.id: 1.0 for i in chosen}
    for mask in range(full_mask(3) + 1):
        state = deliberation(*parts(hybrid(controlled.old, controlled.new, mask)), family.actions)
        for v in bound:
            limit = q3_bound(state, v)
            if limit is not None:
                bound[v] = min(bound[v], limit)
    return [tempered(i, bound[i.claim.id]) for i in chosen]
