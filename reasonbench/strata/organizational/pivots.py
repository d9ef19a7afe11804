"""What the composer checks about a draw: cube cells, inert sources, edits that matter.

:mod:`.compose` executes every composed draw before returning it (a no-op source must be inert,
a pivot draw's other sources must not be) and its edits are steered by the predicates here.
They run once or more per operator call, so they work on the components directly: the eight
cells come from at most four scope tests and four rulings (:func:`cells` gives exactly the
verdicts the registered adjudicator gives the hybrids), and components a revision left alone are
recognised by identity.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.organizational.model import REFER, Grounds
from reasonbench.strata.organizational.schema import Clause

JURISDICTION = 0.7  # chance a grounds edit must cross the scope when the scope is revised too
ORDER = (0, 1, 2, 4, 3, 5, 6, 7)  # cell masks by size, then members (core.sources.cell_order)

Cells = tuple[str, ...]
Wanted = Callable[[EvaluatorState[Any], EvaluatorState[Any]], bool]


def cells(old: EvaluatorState[Any], new: EvaluatorState[Any]) -> Cells:
    """The 8 cube verdicts of ``(old, new)`` indexed by mask (bit 0 = G, 1 = N, 2 = A).

    ``pXY``: whether scope X admits facts Y; ``dXY``: rule X's ruling on facts Y (0 = old,
    1 = new), computed only where some scope admits the facts; a component the revision left
    alone (the same object) shares its evaluations.
    """
    g0, n0, a0 = old.components
    g1, n1, a1 = new.components
    f0, f1 = g0.mapping, g1.mapping
    same_g, same_n, same_a = g1 is g0, n1 is n0, a1 is a0
    p00 = a0.admits(f0)
    p01 = p00 if same_g else a0.admits(f1)
    p10 = p00 if same_a else a1.admits(f0)
    p11 = p01 if same_a else p10 if same_g else a1.admits(f1)
    d00 = n0.decide(f0) if p00 or p10 else REFER
    d01 = d00 if same_g else n0.decide(f1) if p01 or p11 else REFER
    d10 = d00 if same_n else n1.decide(f0) if p00 or p10 else REFER
    d11 = d01 if same_n else d10 if same_g else n1.decide(f1) if p01 or p11 else REFER
    return (
        d00 if p00 else REFER,
        d01 if p01 else REFER,
        d10 if p00 else REFER,
        d11 if p01 else REFER,
        d00 if p10 else REFER,
        d01 if p11 else REFER,
        d10 if p10 else REFER,
        d11 if p11 else REFER,
    )


def inert(verdicts: Cells, source: str) -> bool:
    """Whether replacing ``source`` never changes a cell: V(S) = V(S + source) for all S."""
    bit = 1 << GNA.index(source)
    return all(verdicts[m] == verdicts[m | bit] for m in range(8) if not m & bit)


def ambiguous(verdicts: Cells) -> bool:
    """Whether the receipt of these cells has more than one minimal sufficient set."""
    target = verdicts[7]
    if verdicts[0] == target:
        return False
    found: list[int] = []
    for mask in ORDER:
        if verdicts[mask] == target and not any(mask & m == m for m in found):
            found.append(mask)
    return len(found) > 1


def joint(verdicts: Cells, changed: int) -> bool:
    """Whether every source in ``changed`` is needed: no hybrid missing one of them gives the
    revised verdict (the receipt is the one set ``changed``; its size is the number revised)."""
    target = verdicts[7]
    return all(verdicts[m] != target for m in range(8) if m & changed != changed)


GOALS: dict[str, Callable[[Cells, int], bool]] = {
    "ambiguous": lambda verdicts, changed: ambiguous(verdicts),
    "joint": joint,
}


def touched(clause: Clause, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> tuple[str, ...]:
    """Facts a composition has touched so far: revised grounds, fields of edited rule lines."""
    if new is old:
        return ()
    g0, n0, _ = old.components
    g1, n1, _ = new.components
    names: set[str] = set()
    if g1 is not g0:
        before = g0.mapping
        names = {n for n, v in g1.values if before.get(n) != v}
    if n1 is not n0:
        names |= {p.field for p in set(n0.predicates()) ^ set(n1.predicates())}
    if not names:
        return ()
    return tuple(f.name for f in clause.fields if f.name in names)  # schema order: deterministic


def about(focus: tuple[str, ...], before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """Whether an edit touches a focused field (a rule line or scope test mentioning it)."""
    _, n0, a0 = before.components
    _, n1, a1 = after.components
    if n1 is not n0 and any(p.field in focus for p in set(n0.predicates()) ^ set(n1.predicates())):
        return True
    return a1 is not a0 and any(t.field in focus for t in set(a0.tests) ^ set(a1.tests))


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
    g0, n0, a0 = before.components
    g1, n1, a1 = after.components
    if source == "G":
        f0, f1 = g0.mapping, g1.mapping
        return bool(a0.admits(f0) != a0.admits(f1) or n0.decide(f0) != n0.decide(f1))
    facts = (origin.mapping, g1.mapping)
    if source == "N":
        return any(n0.decide(f) != n1.decide(f) for f in facts)
    return any(a0.admits(f) != a1.admits(f) for f in facts)


def crosses_scope(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """A grounds edit that moves the case into or out of the current scope."""
    g0, _, a0 = before.components
    g1 = after.components[0]
    return bool(a0.admits(g0.mapping) != a0.admits(g1.mapping))


def admits_case(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """A scope edit that brings the current (revised) case into the scope."""
    g1, _, a0 = before.components
    a1 = after.components[2]
    return bool(not a0.admits(g1.mapping) and a1.admits(g1.mapping))


def jurisdiction(source: str, ordered: tuple[str, ...], rng: random.Random) -> Wanted | None:
    """The usual steer of a grounds or scope edit when both are revised (else ``None``).

    Revised jurisdiction facts and a revised scope go together: a size-3 receipt needs the
    revised case to leave the old scope and the revised scope to take it back in (see
    docs/strata/organizational.md), so when G and A are both revised each usually aims at that.
    """
    if source == "G" and "A" in ordered and rng.random() < JURISDICTION:
        return crosses_scope
    if source == "A" and "G" in ordered and rng.random() < JURISDICTION:
        return admits_case
    return None


def verdict(state: EvaluatorState[Any]) -> str:
    """What the adjudicator says about ``state`` (``refer`` outside the scope)."""
    grounds, norm, scope = state.components
    return REFER if not scope.admits(grounds.mapping) else str(norm.decide(grounds.mapping))


def merits_flip(before: EvaluatorState[Any], after: EvaluatorState[Any]) -> bool:
    """A grounds edit that changes the ruling on the merits, inside the current scope."""
    g0, n0, a0 = before.components
    g1 = after.components[0]
    f0, f1 = g0.mapping, g1.mapping
    return bool(a0.admits(f0) and a0.admits(f1) and n0.decide(f0) != n0.decide(f1))


def possibly_ambiguous(ordered: tuple[str, ...]) -> bool:
    """Whether revising these sources can give a receipt-ambiguous case.

    One source cannot; nor can N and A alone: with the facts fixed, a scope that admits the
    case leaves the ruling to the rule, and one that refers it makes any rule irrelevant, so
    V(N) = V(A) = V(NA) != V() never holds.
    """
    return len(ordered) > 1 and ordered != ("N", "A")


def aimed_wanted(source: str, ordered: tuple[str, ...], old: EvaluatorState[Any]) -> Wanted:
    """What a non-final edit should achieve when the draw aims at an ambiguous receipt.

    The first edit must change the verdict on its own (a singleton sufficient set; for G+N on
    the merits, inside the scope, or the rule could not follow), one in between must matter
    (:func:`pivotal`); the final edit must make the cells ambiguous (:mod:`.compose` checks
    that, see :data:`GOALS`). With :class:`.focus.Focus` ``mirror`` set, later edits aim at the
    old fact while keeping the revised fact's standing, so they reach the revised verdict alone.
    """
    if source == ordered[0]:
        if "A" in ordered:
            return lambda before, after: verdict(before) != verdict(after)
        return merits_flip
    origin = old.components[0]
    return lambda before, after: pivotal(before, after, source, origin)
