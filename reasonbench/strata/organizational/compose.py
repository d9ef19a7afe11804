"""Composing typed operators into a transition: one operator per requested source, G then N then A.

A multi-source change is literally the composition of single-source ones: each operator sees the
state left by the previous one and replaces only its own component. Two guarantees are enforced
here, not hoped for:

* every requested source really changes (an operator whose result equals the current component
  counts as not applicable), and no other source does;
* a *no-op* operator's source is inert in the final cube: swapping it in or out never changes a
  cell. By construction this holds for single-source changes; when a later operator undoes it
  (e.g. a new requirement on the fact a no-op touched), the draw is rejected and redrawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator, Transition
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.focus import Focus
from reasonbench.strata.organizational.model import Grounds
from reasonbench.strata.organizational.registry import by_source, resolve
from reasonbench.strata.organizational.sampling import sample_base
from reasonbench.strata.organizational.schema import Clause

ATTEMPTS = 12  # fresh base states tried before giving up on a (sources, operators) request
FOCUS_OPERATORS = 0.75  # chance a later operator is chosen for being about a touched fact
PIVOT = 0.7  # chance an operator's edit is redrawn until it matters for the current case
TRIES = 4  # redraws allowed for that
JURISDICTION = 0.7  # chance a grounds edit must cross the scope when the scope is revised too


def inert(cube: Cube, source: str) -> bool:
    """Whether replacing ``source`` never changes a cell: V(S) = V(S + source) for all S."""
    bit = 1 << GNA.index(source)
    return all(cube[m] == cube[m | bit] for m in range(8) if not m & bit)


def touched(clause: Clause, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> tuple[str, ...]:
    """Facts a composition has touched so far: revised grounds, fields of edited rule lines."""
    g0, n0, _ = unpack(old)
    g1, n1, _ = unpack(new)
    names = {n for n in g1.names() if g0.mapping.get(n) != g1[n]}
    names |= {p.field for p in set(n0.predicates()) ^ set(n1.predicates())}
    return tuple(f.name for f in clause.fields if f.name in names)  # schema order: deterministic


def pivotal(
    before: EvaluatorState[Any], after: EvaluatorState[Any], source: str, origin: Grounds
) -> bool:
    """Whether an edit matters for the case in its own source's terms.

    G: the facts' standing under the current scope or rule changes; N: the rule's ruling on
    the original or the current facts changes; A: whether the scope admits the original or the
    current facts changes. (Both fact versions count: the cube combines the edit with each.)
    Other sources may still mask it (a refer case stays refer), which is what makes receipts
    vary.
    """
    g0, n0, a0 = unpack(before)
    g1, n1, a1 = unpack(after)
    if source == "G":
        return a0.admits(g0.mapping) != a0.admits(g1.mapping) or n0.decide(g0.mapping) != n0.decide(
            g1.mapping
        )
    facts = (origin.mapping, g1.mapping)
    if source == "N":
        return any(n0.decide(f) != n1.decide(f) for f in facts)
    return any(a0.admits(f) != a1.admits(f) for f in facts)


Step = tuple[EvaluatorState[Any], Operator]
Wanted = Callable[[EvaluatorState[Any], EvaluatorState[Any]], bool]


def crosses_scope(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """A grounds edit that moves the case into or out of the current scope."""
    g0, _, a0 = unpack(before)
    g1, _, _ = unpack(after)
    return a0.admits(g0.mapping) != a0.admits(g1.mapping)


def admits_case(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """A scope edit that brings the current (revised) case into the scope."""
    g1, _, a0 = unpack(before)
    _, _, a1 = unpack(after)
    return not a0.admits(g1.mapping) and a1.admits(g1.mapping)


def _attempt(
    unit: Clause | Focus,
    state: EvaluatorState[Any],
    op: Operator,
    rng: random.Random,
    wanted: Wanted | None,
) -> Step | None:
    """One operator's edit; with ``wanted``, a few redraws to find one it accepts."""
    first = None
    for _ in range(TRIES if wanted is not None and not op.noop else 1):
        component = op.apply(unit, state, rng)
        if component is None or component == state[op.source]:
            continue
        after = state.replace(**{op.source: component})
        if wanted is None or op.noop or wanted(state, after):
            return after, op
        first = first or (after, op)
    return first


def apply_one(
    unit: Clause | Focus,
    state: EvaluatorState[Any],
    pool: tuple[Operator, ...],
    rng: random.Random,
    wanted: Wanted | None = None,
) -> Step | None:
    """Draw an operator of the pool (random order, first applicable) and apply it.

    The edit is preferably one ``wanted`` accepts (e.g. one that matters for the current
    case, :func:`pivotal`) and, in a composition, one about the facts already touched
    (:func:`about`); the choice among operators stays uniform over those that apply, so
    held-out operators stay meaningful.
    """
    order = list(pool)
    rng.shuffle(order)
    focus = unit.fields if isinstance(unit, Focus) and rng.random() < FOCUS_OPERATORS else ()
    fallback = None
    for op in order:
        candidate = _attempt(unit, state, op, rng, wanted)
        if candidate is None:
            continue
        if not focus or about(focus, state, candidate[0]):
            return candidate
        fallback = fallback or candidate
    return fallback


def about(focus: tuple[str, ...], before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """Whether an edit touches a focused field (a rule line or scope test mentioning it)."""
    _, n0, a0 = unpack(before)
    _, n1, a1 = unpack(after)
    edited = (set(n0.predicates()) ^ set(n1.predicates())) | (set(a0.tests) ^ set(a1.tests))
    return any(p.field in focus for p in edited)


def wanted(source: str, sources: tuple[str, ...], origin: Grounds, rng: random.Random) -> Wanted:
    """What the edit of ``source`` should achieve in a pivot draw.

    Revised jurisdiction facts and a revised scope go together: a size-3 receipt needs the
    revised case to leave the old scope and the revised scope to take it back in (see
    docs/strata/organizational.md), so when G and A are both revised each usually aims at
    that; otherwise the edit must matter for the case (:func:`pivotal`).
    """
    if source == "G" and "A" in sources and rng.random() < JURISDICTION:
        return crosses_scope
    if source == "A" and "G" in sources and rng.random() < JURISDICTION:
        return admits_case
    return lambda before, after: pivotal(before, after, source, origin)


def check_sources(sources: tuple[str, ...]) -> None:
    if not sources or any(s not in GNA for s in sources) or len(set(sources)) != len(sources):
        raise ValueError(f"sources must be a non-empty subset of {GNA}, got {sources}")


def sample_transition(
    clause: Clause,
    rng: random.Random,
    sources: tuple[str, ...],
    operators: Sequence[str] | None = None,
) -> Transition | None:
    """A base state for ``clause`` and a revision changing exactly ``sources`` (or ``None``)."""
    check_sources(sources)
    pools = by_source(resolve(operators))
    if any(not pools[s] for s in sources):
        return None
    # Usually (PIVOT) every revised source must matter somewhere in the cube (swapping it
    # changes some cell); a base state on which an operator cannot matter (e.g. widening the
    # scope for a case already inside it) is redrawn a few times. Without this, most revisions
    # would be about nothing. No-op operators must instead be inert.
    pivot = rng.random() < PIVOT
    for attempt in range(ATTEMPTS):
        old = sample_base(clause, rng)
        new, applied = old, []
        origin = unpack(old)[0]
        for source in (s for s in GNA if s in sources):
            focus = touched(clause, old, new)
            unit = Focus(clause, focus, origin) if focus else clause
            want = wanted(source, sources, origin, rng) if pivot else None
            step = apply_one(unit, new, pools[source], rng, want)
            if step is None:
                break
            new, op = step
            applied.append(op)
        else:
            cube = execute_cube(ADJUDICATOR, old, new)
            if not all(inert(cube, op.source) for op in applied if op.noop):
                continue
            last = attempt == ATTEMPTS - 1
            if pivot and not last and any(inert(cube, op.source) for op in applied if not op.noop):
                continue
            return Transition(clause.unit_id, old, new, tuple(op.name for op in applied), {})
    return None
