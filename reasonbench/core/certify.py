"""Certification: executing hybrids through a trusted adjudicator.

Exhaustive certification executes all 2^k cells. The adaptive certifier queries the two
endpoints, stops if they agree (stable), and otherwise walks interior cells by increasing size,
skipping every superset of a set already found sufficient: such a superset cannot be minimal,
so its verdict cannot change the receipt. It returns the same receipt as exhaustive execution and
never uses more than 2^k - 2 interior queries; the bound is attained exactly when no interior cell
is sufficient (nothing can be skipped).
"""

from __future__ import annotations

from dataclasses import dataclass

from reasonbench.core.cube import Cube, Oracle
from reasonbench.core.receipt import Receipt, receipt_of
from reasonbench.core.sources import GNA, cell_order, full_mask, validate_sources


@dataclass(frozen=True)
class Certificate:
    """A receipt plus what it cost: interior adjudicator queries (endpoints not counted)."""

    receipt: Receipt
    queries: int

    @property
    def max_queries(self) -> int:
        return (1 << len(self.receipt.sources)) - 2


def certify_exhaustive(oracle: Oracle, sources: tuple[str, ...] = GNA) -> Certificate:
    """Execute every cell; the reference the adaptive certifier must agree with."""
    cube = Cube.from_oracle(oracle, sources)
    return Certificate(receipt_of(cube), (1 << len(sources)) - 2)


def certify_adaptive(oracle: Oracle, sources: tuple[str, ...] = GNA) -> Certificate:
    """Query cell by cell, skipping supersets of sufficient sets; count interior queries."""
    validate_sources(sources)
    k = len(sources)
    top = full_mask(k)
    old, new = oracle(0), oracle(top)
    if old == new:
        return Certificate(Receipt(sources, old, new, ()), 0)
    found: list[int] = []
    queries = 0
    for mask in cell_order(k):
        if mask in (0, top):
            continue
        if any(mask & m == m for m in found):
            continue  # a superset of a sufficient set: never minimal, no query needed
        queries += 1
        if oracle(mask) == new:
            found.append(mask)
    if not found:
        found.append(top)  # nothing smaller suffices, so the full replacement is the receipt
    return Certificate(Receipt(sources, old, new, tuple(found)), queries)
