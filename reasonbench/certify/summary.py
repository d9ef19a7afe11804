"""The run's summary: counts, receipts by source set, query spend, and what was not certified.

Everything in :meth:`CertifySummary.to_json` is a function of the configuration, the case file
and the verdicts, so a rerun from the cache writes the same bytes; what differs between runs
(executions actually run, wall time) is in :class:`RunStats`, which is returned, not written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reasonbench.certify.casework import STATUSES, CaseResult
from reasonbench.core.sources import mask_members

__all__ = ["CertifySummary", "RunStats", "family_text", "summarize"]


@dataclass(frozen=True)
class RunStats:
    executed: int  # executions run by this invocation (cache misses, failures included)
    cached_before: int  # executions already in the cache when the run started
    seconds: float


def set_text(mask: int, sources: tuple[str, ...]) -> str:
    return "{" + ", ".join(mask_members(mask, sources)) + "}"


def family_text(sets: Sequence[int], sources: tuple[str, ...]) -> str:
    """``{rubric} or {case, instructions}``: a receipt family on one line, canonical order."""
    return " or ".join(set_text(m, sources) for m in sets)


@dataclass(frozen=True)
class CertifySummary:
    config: Mapping[str, Any]
    input: Mapping[str, Any]
    counts: Mapping[str, int]
    uncertified_by_reason: Mapping[str, int]
    families: Sequence[tuple[str, int]]
    sets: Sequence[tuple[str, int]]
    queries: Mapping[str, Any]
    failures_by_kind: Mapping[str, int]
    failures: Sequence[Mapping[str, Any]]
    uncertified: Sequence[Mapping[str, Any]]
    unstable: Sequence[Mapping[str, Any]]
    violations: Sequence[Mapping[str, Any]]
    under_assumption: Mapping[str, int] = field(default_factory=dict)
    monotone_check: Mapping[str, int] | None = None  # execution=monotone: the re-asked cells
    run: RunStats | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "config": dict(self.config),
            "input": dict(self.input),
            "counts": dict(self.counts),
            "uncertified_by_reason": dict(self.uncertified_by_reason),
            "receipts_by_family": [{"family": f, "cases": n} for f, n in self.families],
            "receipts_by_set": [{"set": s, "cases": n} for s, n in self.sets],
            "queries": dict(self.queries),
            "failures_by_kind": dict(self.failures_by_kind),
            "failures": [dict(f) for f in self.failures],
            "uncertified": [dict(u) for u in self.uncertified],
            "unstable": [dict(u) for u in self.unstable],
            "assumption_violations": [dict(v) for v in self.violations],
            "receipts_under_assumption": dict(self.under_assumption),
            "monotone_check": None if self.monotone_check is None else dict(self.monotone_check),
        }


def _ranked(counter: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def summarize(
    results: Sequence[CaseResult],
    sources: tuple[str, ...],
    config: Mapping[str, Any],
    input_info: Mapping[str, Any],
) -> CertifySummary:
    counts = Counter(r.status for r in results)
    families: Counter[str] = Counter()
    sets: Counter[str] = Counter()
    for r in results:
        if r.sets:
            families[family_text(r.sets, sources)] += 1
            sets.update(set_text(m, sources) for m in r.sets)
    spent = sum(r.queries for r in results)
    cells = sum(r.max_queries for r in results)
    rows = [r.to_json() for r in results]
    failures = [{"id": row["id"], **f} for row in rows for f in row["failures"]]
    queries = {
        "spent": spent,
        "interior_cells": cells,
        "share": spent / cells if cells else None,
        "mean_per_case": spent / len(results) if results else None,
        "by_status": {s: sum(r.queries for r in results if r.status == s) for s in STATUSES},
    }
    return CertifySummary(
        config=config,
        input=input_info,
        counts={s: counts.get(s, 0) for s in STATUSES},
        uncertified_by_reason=dict(sorted(Counter(r.reason for r in results if r.reason).items())),
        families=_ranked(families),
        sets=_ranked(sets),
        queries=queries,
        failures_by_kind=dict(sorted(Counter(f["kind"] for f in failures).items())),
        failures=failures,
        uncertified=[
            {"id": r.id, "reason": r.reason, "message": r.message}
            for r in results
            if r.status == "uncertified"
        ],
        unstable=[{"id": row["id"], "cells": row["unstable"]} for row in rows if row["unstable"]],
        violations=[
            {
                "id": row["id"],
                **row["assumption_violation"],
                "found_by": "reasking" if r.caught_by_reasking else "search",
            }
            for r, row in zip(results, rows, strict=True)
            if row["assumption_violation"]
        ],
        under_assumption=dict(
            sorted(Counter(r.assumption for r in results if r.assumption).items())
        ),
        monotone_check=(
            {
                "cells_reasked": sum(r.reasked for r in results),
                "violations": sum(r.violation is not None for r in results),
                "violations_found_by_reasking": sum(r.caught_by_reasking for r in results),
            }
            if config.get("execution") == "monotone"
            else None
        ),
    )
