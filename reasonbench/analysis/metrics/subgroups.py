"""Structural subgroups: one registered key per breakdown (a gold fact of each example)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reasonbench.analysis.gold import Gold
from reasonbench.analysis.metrics.base import summarize
from reasonbench.analysis.record import SplitSummary
from reasonbench.analysis.scoring import Carried, Scored
from reasonbench.registry import Registry

__all__ = ["AMBIGUITY", "MIN_RECEIPT_SIZE", "STRATUM", "SUBGROUPS", "subgroups"]

STRATUM, MIN_RECEIPT_SIZE, AMBIGUITY = "stratum", "min_receipt_size", "ambiguity"

SUBGROUPS: Registry[Callable[[Gold], str]] = Registry("subgroup")
SUBGROUPS.register(STRATUM, lambda g: g.stratum)
SUBGROUPS.register(MIN_RECEIPT_SIZE, lambda g: g.subgroup_size)
# stable cases have their own value in both families: "unambiguous" is a change with one minimal
# set, never a stable case (before issue 41, 990 of small_cpu-cube's 991 correct "unambiguous"
# answers were stable cases)
SUBGROUPS.register(AMBIGUITY, lambda g: g.subgroup_ambiguity)


def subgroups(
    rows: Sequence[Scored], fields: Carried, names: Sequence[str] | None = None
) -> dict[str, dict[str, SplitSummary]]:
    """subgroup family -> value -> summary (values sorted)."""
    out: dict[str, dict[str, SplitSummary]] = {}
    for name in names if names is not None else SUBGROUPS.names():
        key = SUBGROUPS.get(name)
        groups: dict[str, list[Scored]] = {}
        for r in rows:
            groups.setdefault(key(r.gold), []).append(r)
        out[name] = {value: summarize(groups[value], fields) for value in sorted(groups)}
    return out
