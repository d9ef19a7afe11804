"""Structure-aware certification: ``assume=monotone``.

Under the monotone assumption (:mod:`reasonbench.core.verdict_order`) one answer settles many
cells: a sufficient ``S`` makes every superset sufficient, an insufficient ``S`` every subset
insufficient. The receipt is then the set of minimal sufficient cells, and any certifier must at
least query every interior minimal sufficient and maximal insufficient cell (flipping one of them
gives another monotone table with another receipt): :func:`monotone_lower_bound`.

Query choice, deterministic throughout:

1. **Cut**: among unknown cells, ask the one whose answer settles the most unknown cells
   *whichever way it goes*: the maximum over cells of ``min(|unknown supersets|, |unknown
   subsets|)`` (counts by superset/subset sums over the unknown indicator, ``O(k 2^k)``); ties go
   to the earliest cell in the documented cell order.
2. **Walk to the border**: from a sufficient answer, try its unknown one-smaller subsets (sources
   in declared order) and move to the first that is still sufficient; from an insufficient
   answer, the one-larger supersets. The walk stops at a cell whose neighbours in that direction
   are all known, i.e. on the border the lower bound counts, where the next cut starts.

Every answer goes through a :class:`~reasonbench.core.verdict_order.MonotoneCheck`. When the
oracle contradicts the assumption the certifier reports the witness and falls back to the
assumption-free adaptive certifier, reusing every answer it already has, so the receipt it returns
is always the one exhaustive execution gives on the cells it saw.

The cells it never asks are settled by the assumption alone, so an oracle that breaks it there
goes unseen. ``verify`` re-asks some of them once the search is done (it chooses, from the
inferred cells in cell order, which to ask): each answer goes through the same check, and an
inferred cell whose answer differs from what the assumption inferred always forms a violation
with the answered cell that implied it. Re-asking every inferred cell therefore makes the receipt
exact whatever the oracle (at the cost of exhaustive execution).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reasonbench.core.certify import Certificate, certify_adaptive
from reasonbench.core.cube import Cube, Oracle
from reasonbench.core.receipt import Receipt, canonical_family, sufficient
from reasonbench.core.sources import GNA, cell_order, full_mask, validate_sources
from reasonbench.core.verdict_order import MonotoneCheck, Violation

__all__ = ["MonotoneCertificate", "certify_monotone", "monotone_lower_bound"]

Cells = npt.NDArray[np.int64]
Verify = Callable[[tuple[int, ...]], Sequence[int]]  # inferred cells -> the ones to re-ask


@dataclass(frozen=True)
class MonotoneCertificate(Certificate):
    """A certificate under ``assume=monotone``; ``violation`` is set when the oracle broke it
    (the receipt then comes from the assumption-free fallback and is exact). ``reasked``: the
    inferred cells asked after the search (``verify``), in the order asked."""

    order: tuple[str, ...] | None = None
    violation: Violation | None = None
    reasked: tuple[int, ...] = ()

    @property
    def caught_by_reasking(self) -> bool:
        """Whether the violation came from a re-asked cell (re-asking starts after the search,
        so a violation found during the search involves none of them)."""
        v = self.violation
        return v is not None and (v.lower in self.reasked or v.upper in self.reasked)


class _Violated(Exception):
    def __init__(self, violation: Violation) -> None:
        self.violation = violation


def _sum_supersets(values: Cells, k: int) -> Cells:
    out = values.copy()
    for i in range(k):
        view = out.reshape(-1, 2, 1 << i)  # axis 1 = bit i of the mask
        view[:, 0, :] += view[:, 1, :]
    return out


def _sum_subsets(values: Cells, k: int) -> Cells:
    out = values.copy()
    for i in range(k):
        view = out.reshape(-1, 2, 1 << i)
        view[:, 1, :] += view[:, 0, :]
    return out


class _Search:
    """What is known about sufficiency: ``unknown`` and ``sufficient`` flags per mask."""

    def __init__(self, k: int) -> None:
        self.k = k
        n = 1 << k
        self.masks = np.arange(n, dtype=np.int64)
        self.rank = np.empty(n, dtype=np.int64)
        self.rank[list(cell_order(k))] = np.arange(n)
        self.unknown = np.ones(n, dtype=np.int64)
        self.unknown[[0, n - 1]] = 0
        self.sufficient = np.zeros(n, dtype=bool)
        self.sufficient[n - 1] = True

    def cut(self) -> int | None:
        if not self.unknown.any():
            return None
        settles = np.minimum(
            _sum_supersets(self.unknown, self.k), _sum_subsets(self.unknown, self.k)
        )
        settles = np.where(self.unknown > 0, settles, -1)
        best = np.flatnonzero(settles == settles.max())
        return int(best[np.argmin(self.rank[best])])

    def settle(self, mask: int, is_sufficient: bool) -> None:
        if is_sufficient:
            implied = (self.masks & mask) == mask
            self.sufficient[implied & (self.unknown > 0)] = True
        else:
            implied = (self.masks | mask) == mask
        self.unknown[implied] = 0

    def minimal_sufficient(self) -> tuple[int, ...]:
        minimal = self.sufficient.copy()
        for i in range(self.k):
            has = (self.masks >> i & 1).astype(bool)
            minimal &= ~(has & self.sufficient[self.masks ^ (1 << i)])
        return canonical_family(np.flatnonzero(minimal).tolist(), self.k)


def certify_monotone(
    oracle: Oracle,
    sources: tuple[str, ...] = GNA,
    order: Sequence[str] | None = None,
    verify: Verify | None = None,
) -> MonotoneCertificate:
    """Certify under the monotone assumption (``order``: a verdict order, low to high);
    ``verify`` picks inferred cells to re-ask once the search is done (none by default)."""
    validate_sources(sources)
    k = len(sources)
    top = full_mask(k)
    answers = {0: oracle(0), top: oracle(top)}
    old, new = answers[0], answers[top]
    check = MonotoneCheck(old, new, order)
    frozen_order = None if order is None else tuple(order)
    if old == new:
        return MonotoneCertificate(Receipt(sources, old, new, ()), 0, frozen_order)
    check.answer(0, old)
    check.answer(top, new)
    search = _Search(k)

    def ask(mask: int) -> bool:
        verdict = answers[mask] = oracle(mask)
        violation = check.answer(mask, verdict)
        if violation is not None:
            raise _Violated(violation)
        search.settle(mask, verdict == new)
        return verdict == new

    def walk(mask: int, is_sufficient: bool) -> None:
        moved = True
        while moved:
            moved = False
            for i in range(k):
                if bool(mask >> i & 1) != is_sufficient:
                    continue  # down from a sufficient cell, up from an insufficient one
                neighbour = mask ^ (1 << i)
                if search.unknown[neighbour] and ask(neighbour) == is_sufficient:
                    mask, moved = neighbour, True
                    break

    reasked: list[int] = []
    try:
        while (cell := search.cut()) is not None:
            walk(cell, ask(cell))
        if verify is not None:
            inferred = tuple(m for m in cell_order(k) if m not in answers)
            for mask in verify(inferred):
                reasked.append(mask)
                ask(mask)
    except _Violated as broken:

        def reuse(mask: int) -> str:
            if mask not in answers:
                answers[mask] = oracle(mask)
            return answers[mask]

        exact = certify_adaptive(reuse, sources)
        queries = len(answers) - 2
        return MonotoneCertificate(
            exact.receipt, queries, frozen_order, broken.violation, tuple(reasked)
        )
    receipt = Receipt(sources, old, new, search.minimal_sufficient())
    return MonotoneCertificate(receipt, len(answers) - 2, frozen_order, reasked=tuple(reasked))


def monotone_lower_bound(cube: Cube) -> int:
    """Interior minimal sufficient plus maximal insufficient cells of a sufficiency-monotone
    cube: no certifier can do with fewer queries (0 for a stable cube)."""
    if not cube.changed:
        return 0
    k, top = cube.k, full_mask(cube.k)
    count = 0
    for mask in range(1, top):
        if sufficient(cube, mask):
            below = (mask ^ (1 << i) for i in range(k) if mask >> i & 1)
            count += not any(sufficient(cube, m) for m in below)
        else:
            above = (mask | (1 << i) for i in range(k) if not mask >> i & 1)
            count += all(sufficient(cube, m) for m in above)
    return count
