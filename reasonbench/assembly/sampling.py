"""Per-unit candidate pools: seeded draws of transitions, executed and classified.

A pool is drawn until it holds enough candidates of every case class (or a draw budget runs out;
the allocator then shifts the shortfall to other units). Draws are a pure function of
(seed, stream, unit), so re-running a pool reproduces it exactly, in any process.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from reasonbench.core.canonical import canonical_json
from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.strata.base import Stratum, Transition, state_text

SUBSETS: tuple[tuple[str, ...], ...] = tuple(
    c for r in (1, 2, 3) for c in combinations(("G", "N", "A"), r)
)


ANY = "any"  # a class-blind want/take: the first n candidates, whatever their class


@dataclass(frozen=True)
class DrawRules:
    """What a split allows: which source subsets change, which operators, families, depths."""

    subsets: tuple[tuple[str, ...], ...]
    operators: tuple[str, ...] | None  # allowed operator names (None = all)
    require_operator: tuple[str, ...] = ()  # at least one of these must be applied
    families: tuple[str, ...] = ()
    min_depth: int | None = None
    max_depth: int | None = None
    require_changed: bool = False
    aim: str | None = None  # hint passed to the stratum (see ``Stratum.sample_transition``)


Traces = tuple[list[str], list[str]]
"""The adjudicator's traces of a case's old and new state (``Stratum.trace``)."""


def traces_of(stratum: Stratum, transition: Transition) -> Traces:
    """``stratum.trace`` of the transition's old and new state, under its context."""
    context = transition.context
    return stratum.trace(transition.old, context), stratum.trace(transition.new, context)


@dataclass(frozen=True)
class Candidate:
    draw: int  # the draw that produced it (replayable: see ``draw_rng``)
    transition: Transition
    cube: Cube
    receipt: Receipt
    family: str
    depth: int | None
    # Taken when the draw is accepted, while the adjudicator's caches still hold both states:
    # a record written phases later recomputed them cold (8 s of a one-process extended build).
    traces: Traces

    @property
    def case_class(self) -> str:
        if self.receipt.stable:
            return "stable"
        return "ambiguous" if self.receipt.ambiguous else "changed"


def state_key(stratum: Stratum, transition: Transition) -> str:
    """Identity of a case's content, to keep a pool free of duplicates: the canonical JSON of
    both states and the context (each state's text as the record stores it)."""
    old, new = (state_text(stratum, s) for s in (transition.old, transition.new))
    return f"[{old},{new},{canonical_json(dict(transition.context))}]"


def draw_one(
    stratum: Stratum, unit: Any, rules: DrawRules, rng: random.Random, draw: int
) -> Candidate | None:
    """One draw: a transition that satisfies ``rules``, executed; ``None`` if rejected."""
    operators = None if rules.operators is None else list(rules.operators)
    sources = rules.subsets[rng.randrange(len(rules.subsets))]
    family = rules.families[rng.randrange(len(rules.families))]
    transition = stratum.sample_transition(
        unit,
        rng,
        sources,
        operators,
        aim=rules.aim,
        min_depth=rules.min_depth,
        max_depth=rules.max_depth,
    )
    if transition is None:
        return None
    if rules.require_operator and not set(transition.operators) & set(rules.require_operator):
        return None
    depth = stratum.proof_depth(transition)
    if depth is not None:
        if rules.min_depth is not None and depth < rules.min_depth:
            return None
        if rules.max_depth is not None and depth > rules.max_depth:
            return None
    cube = execute_cube(stratum.adjudicator(transition.context), transition.old, transition.new)
    receipt = receipt_of(cube)
    if rules.require_changed and receipt.stable:
        return None
    return Candidate(draw, transition, cube, receipt, family, depth, traces_of(stratum, transition))


def draw_rng(stream: str, draw: int) -> random.Random:
    """Every draw has its own RNG, so any accepted draw can be replayed alone, in any process."""
    return random.Random(f"{stream}:{draw}")


def replay(
    stratum: Stratum, unit: Any, rules: DrawRules, stream: str, draws: list[int]
) -> list[Candidate]:
    """Re-create the accepted candidates of the given draws (identical to the pool's)."""
    out = []
    for draw in draws:
        candidate = draw_one(
            stratum, unit, rules_for_draw(rules, draw), draw_rng(stream, draw), draw
        )
        if candidate is None:  # cannot happen for a draw the pool accepted: determinism broke
            raise RuntimeError(f"draw {draw} of stream {stream} no longer yields a case")
        out.append(candidate)
    return out


FOCUS = 1 << 32
"""Draws numbered from FOCUS change two or three sources and ask the stratum for an ambiguous
case: a receipt can be ambiguous only when at least two sources change, so once a pool lacks
nothing but ambiguous cases other draws are wasted. Encoding the mode in the draw number keeps
every draw replayable."""


def rules_for_draw(rules: DrawRules, draw: int) -> DrawRules:
    return rules if draw < FOCUS else _focused(rules)


@lru_cache(maxsize=256)
def _focused(rules: DrawRules) -> DrawRules:
    """A focused draw's rules, built once per rule set rather than once per draw."""
    multi = tuple(s for s in rules.subsets if len(s) > 1)
    return replace(rules, subsets=multi or rules.subsets, aim="ambiguous")


def build_pool(
    stratum: Stratum,
    unit: Any,
    rules: DrawRules,
    stream: str,
    wants: dict[str, int],
    budget: int,
) -> list[Candidate]:
    """Draw until every class in ``wants`` has that many candidates (or ``budget`` draws).

    ``wants`` may use the key ``"any"`` for a class-blind count. Candidates of a class that is
    already full are still kept: the allocator may need a unit to give more of a class than its
    proportional share. Duplicate case contents are skipped.
    """
    pool: list[Candidate] = []
    seen: set[str] = set()
    have = dict.fromkeys(wants, 0)
    draw = 0
    for _ in range(budget):
        missing = [c for c, n in wants.items() if have[c] < n]
        if not missing:
            break
        if missing == ["ambiguous"] and draw < FOCUS:
            draw = FOCUS
        candidate = draw_one(
            stratum, unit, rules_for_draw(rules, draw), draw_rng(stream, draw), draw
        )
        draw += 1
        if candidate is None:
            continue
        key = state_key(stratum, candidate.transition)
        if key in seen:
            continue
        seen.add(key)
        pool.append(candidate)
        if candidate.case_class in have:
            have[candidate.case_class] += 1
        if ANY in have:
            have[ANY] = len(pool)
    return pool
