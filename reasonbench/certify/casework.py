"""Certifying one case: the core certifier of the configured execution over the plug-in's verdicts.

The certifier sees run 0 of each hybrid it asks for. The case is **uncertified** (never given a
receipt) when a hybrid failed, when the budget ran out, or when the receipt *depends on an
unstable cell*: a consulted cell whose runs disagree on what the certifier read from it — the
label for an endpoint (or for any cell under ``monotone`` with a verdict order, whose checks read
labels), otherwise whether the cell is sufficient. Runs that disagree only between two
insufficient labels cannot change the receipt, so they are reported but do not uncertify it.

Under ``monotone`` the cells the assumption settles are never asked, so a violation there is
invisible to the certifier; ``verify_fraction`` re-asks a sample of them after the search: the
ceiling of that fraction of the inferred cells (within what the budget leaves), chosen by a
sha256 of (``verify_seed``, case id, cell key), so the sample is the same in every run, on
every machine, and independent of the other cases and of the worker threads.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reasonbench.certify.cases import Case
from reasonbench.certify.execute import CellRuns, Executor, Failure
from reasonbench.core.canonical import canonical_json, json_utf8
from reasonbench.core.certify import Certificate, certify_adaptive, certify_exhaustive
from reasonbench.core.cube import Oracle
from reasonbench.core.monotone import MonotoneCertificate, Verify, certify_monotone
from reasonbench.core.sources import cell_key, full_mask, mask_members, popcount
from reasonbench.core.verdict_order import Violation

__all__ = ["CERTIFIERS", "STATUSES", "CaseResult", "certify_case", "reask_sample"]

STATUSES = ("changed", "ambiguous", "stable", "uncertified")

# (oracle, sources, verdict order, which inferred cells to re-ask) -> certificate
Certifier = Callable[[Oracle, tuple[str, ...], tuple[str, ...] | None, Verify], Certificate]
CERTIFIERS: dict[str, Certifier] = {
    "exhaustive": lambda oracle, sources, order, verify: certify_exhaustive(oracle, sources),
    "adaptive": lambda oracle, sources, order, verify: certify_adaptive(oracle, sources),
    "monotone": certify_monotone,
}


@dataclass(frozen=True)
class CaseResult:
    """One line of the receipts file (:meth:`to_json`); ``sets`` are masks over ``sources``."""

    id: str
    sources: tuple[str, ...]
    status: str
    old: str | None
    new: str | None
    sets: tuple[int, ...] | None
    queries: int
    reason: str | None = None  # uncertified: "failure", "budget" or "unstable"
    message: str | None = None
    assumption: str | None = None  # what a receipt is exact under ("monotone ..."), if anything
    unstable: tuple[tuple[int, tuple[str, ...]], ...] = ()
    failures: tuple[tuple[int, Failure], ...] = ()
    violation: Violation | None = None
    reasked: int = 0  # monotone: inferred cells re-asked after the search (verify_fraction)
    caught_by_reasking: bool = False  # the violation came from one of them

    @property
    def max_queries(self) -> int:
        return (1 << len(self.sources)) - 2

    def family(self) -> list[list[str]] | None:
        if self.sets is None:
            return None
        return [list(mask_members(m, self.sources)) for m in self.sets]

    def to_json(self) -> dict[str, Any]:
        def key(mask: int) -> str:
            return cell_key(mask, self.sources)

        return {
            "id": self.id,
            "status": self.status,
            "reason": self.reason,
            "message": self.message,
            "old": self.old,
            "new": self.new,
            "receipt": self.family(),
            "min_size": min(map(popcount, self.sets)) if self.sets else None,
            "queries": self.queries,
            "max_queries": self.max_queries,
            "assumption": self.assumption,
            "unstable": [{"cell": key(m), "verdicts": list(v)} for m, v in self.unstable],
            "failures": [{"cell": key(m), **f.to_json()} for m, f in self.failures],
            "assumption_violation": (
                None if self.violation is None else self.violation.to_json(self.sources)
            ),
        }


class _Stop(Exception):
    def __init__(self, reason: str, message: str) -> None:
        self.reason, self.message = reason, message


def reask_sample(
    inferred: tuple[int, ...],
    case_id: str,
    sources: tuple[str, ...],
    fraction: float,
    seed: int,
    room: int | None = None,
) -> list[int]:
    """The inferred cells to re-ask: ``ceil(fraction x inferred)`` of them (at most ``room``),
    those of smallest sha256(seed, case id, cell key), in cell order."""
    # exact decimal arithmetic: 0.1 x 30 is 3, where floats give 3.0000000000000004 (-> 4)
    n = math.ceil(Fraction(str(fraction)) * len(inferred))
    if room is not None:
        n = min(n, room)
    if n <= 0:
        return []

    def rank(mask: int) -> bytes:
        text = canonical_json([seed, case_id, cell_key(mask, sources)])
        return hashlib.sha256(json_utf8(text)).digest()

    chosen = set(sorted(inferred, key=rank)[:n])
    return [m for m in inferred if m in chosen]


def certify_case(
    case: Case,
    sources: tuple[str, ...],
    executor: Executor,
    execution: str,
    budget: int | None = None,
    order: tuple[str, ...] | None = None,
    verify_fraction: float = 0.0,
    verify_seed: int = 0,
) -> CaseResult:
    # certify's config checks these for a run (certify/config.py); a direct call gets the same
    # words, not a KeyError or an order silently ignored by an exact search
    if execution not in CERTIFIERS:
        raise ValueError(f"unknown execution {execution!r}; one of {list(CERTIFIERS)}")
    if order is not None and execution != "monotone":
        raise ValueError("order is only used by execution=monotone")
    top = full_mask(len(sources))
    observed: dict[int, CellRuns] = {}
    assumption = None
    if execution == "monotone":
        assumption = "monotone" if order is None else "monotone in " + " < ".join(order)

    def verify(inferred: tuple[int, ...]) -> Sequence[int]:
        # called when the search is done: the budget left then bounds the sample
        room = None if budget is None else max(0, budget - len(observed.keys() - {0, top}))
        return reask_sample(inferred, case.id, sources, verify_fraction, verify_seed, room)

    def oracle(mask: int) -> str:
        runs = observed.get(mask)
        if runs is None:
            interior = len(observed.keys() - {0, top})
            if budget is not None and mask not in (0, top) and interior >= budget:
                raise _Stop(
                    "budget", f"receipt not certified within the budget of {budget} queries"
                )
            runs = observed[mask] = executor.run(case.hybrid(mask, sources))
            if runs.failures:
                failed = runs.failures[0]
                raise _Stop(
                    "failure",
                    f"adjudicator failed on hybrid {cell_key(mask, sources) or '∅'} "
                    f"(run {failed.run}): {failed.kind}: {failed.detail}",
                )
        return runs.verdicts[0]

    def result(
        status: str,
        sets: tuple[int, ...] | None = None,
        reason: str | None = None,
        message: str | None = None,
        violation: Violation | None = None,
    ) -> CaseResult:
        old, new = (
            runs.verdicts[0] if runs is not None and runs.verdicts else None
            for runs in (observed.get(0), observed.get(top))
        )
        cells = sorted(observed.items())
        reasked = certificate.reasked if isinstance(certificate, MonotoneCertificate) else ()
        return CaseResult(
            case.id,
            sources,
            status,
            old,
            new,
            sets,
            queries=len(observed.keys() - {0, top}),
            reason=reason,
            message=message,
            assumption=assumption if sets and violation is None else None,
            unstable=tuple((m, runs.verdicts) for m, runs in cells if not runs.stable),
            failures=tuple((m, f) for m, runs in cells for f in runs.failures),
            violation=violation,
            reasked=len(reasked),
            caught_by_reasking=isinstance(certificate, MonotoneCertificate)
            and certificate.caught_by_reasking,
        )

    certificate: Certificate | None = None
    try:
        certificate = CERTIFIERS[execution](oracle, sources, order, verify)
    except _Stop as stop:
        return result("uncertified", reason=stop.reason, message=stop.message)
    receipt = certificate.receipt
    reads_labels = order is not None  # an order-monotone search (only monotone takes one)

    def read(mask: int, runs: CellRuns) -> set[object]:
        if mask in (0, top) or reads_labels:
            return set(runs.verdicts)
        return {v == receipt.new for v in runs.verdicts}

    depends = [m for m, runs in sorted(observed.items()) if len(read(m, runs)) > 1]
    violation = certificate.violation if isinstance(certificate, MonotoneCertificate) else None
    if depends:
        cells = ", ".join(cell_key(m, sources) or "∅" for m in depends)
        message = f"the receipt depends on unstable cell(s) {cells}"
        return result("uncertified", reason="unstable", message=message, violation=violation)
    status = "stable" if receipt.stable else "ambiguous" if receipt.ambiguous else "changed"
    return result(status, sets=receipt.sets, violation=violation)
