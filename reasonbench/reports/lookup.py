"""Reading ``metrics.json`` for tables and figures: typed, averaged over each method's own seeds.

:class:`View` wraps the typed report (:class:`reasonbench.analysis.record.MetricsReport`) and
the role map. Which methods a table lists is :meth:`View.methods`: the paper roles it reports
(a role whose run has no predictions still gets its row, marked "not run"), then every other
analyzed method the table applies to — a user's own model, any name, or a method whose role the
table does not name (``tfidf_train_dev`` in the consistency tables): whether a method appears
never depends on a hand-kept list of roles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from reasonbench.analysis.bootstrap import Interval
from reasonbench.analysis.methods import Role, roles
from reasonbench.analysis.record import (
    Comparison,
    MethodEntry,
    MetricsReport,
    Ratio,
    SeedEntry,
)
from reasonbench.reports.curves import RunCurve

__all__ = ["LOCKED", "NOT_RUN", "Row", "View", "seed_mean"]

NOT_RUN = "not run"
LOCKED = "test_locked"


def seed_mean(values: Sequence[float | None]) -> float | None:
    """Mean over the seeds where the value is defined (an undefined value is not a zero)."""
    defined = [v for v in values if v is not None]
    return fmean(defined) if defined else None


@dataclass(frozen=True)
class Row:
    """One method row of a table: its name, its role (``None`` for a method without one), and
    its entry (``None``: not run)."""

    method: str
    role: str | None
    entry: MethodEntry | None


class View:
    def __init__(
        self,
        report: MetricsReport,
        role_map: Mapping[str, Any] | None,
        curves: Sequence[RunCurve] = (),
    ) -> None:
        self.report = report
        self.curves = tuple(curves)  # learning curves of training runs (reports/curves.py)
        self.roles: dict[str, Role] = roles(role_map)
        self.role_of = {r.method: name for name, r in self.roles.items()}

    def entry(self, method: str) -> MethodEntry | None:
        return self.report.methods.get(method)

    def methods(
        self, role_names: Sequence[str], applies: Callable[[MethodEntry], bool] | None = None
    ) -> list[Row]:
        """Rows for ``role_names`` (those in the role map), then every other analyzed method for
        which ``applies`` holds (every one when ``applies`` is None), with its role if it has
        one."""
        rows = [
            Row(self.roles[r].method, r, self.entry(self.roles[r].method))
            for r in role_names
            if r in self.roles
        ]
        listed = {row.method for row in rows}
        for method in sorted(self.report.methods):
            entry = self.report.methods[method]
            if method not in listed and (applies is None or applies(entry)):
                rows.append(Row(method, self.role_of.get(method), entry))
        return rows

    def method_of(self, role: str) -> str | None:
        return self.roles[role].method if role in self.roles else None

    def per_seed(self, method: str, get: Callable[[SeedEntry], float | None]) -> float | None:
        entry = self.entry(method)
        if entry is None:
            return None
        return seed_mean([get(s) for s in entry.seeds.values()])

    def metric(self, method: str, split: str, name: str) -> float | None:
        """A metric on ``split``, mean over the method's own seeds."""

        def get(s: SeedEntry) -> float | None:
            summary = s.splits.get(split)
            ratio = None if summary is None else summary.metrics.get(name)
            return None if ratio is None else ratio.value

        return self.per_seed(method, get)

    def pooled(self, method: str, split: str, name: str) -> Ratio | None:
        """A metric pooled over the method's seed-example observations."""
        entry = self.entry(method)
        summary = None if entry is None else entry.pooled.get(split)
        return None if summary is None else summary.metrics.get(name)

    def interval(self, method: str, name: str, split: str = LOCKED) -> Interval | None:
        inference = self.report.inference.splits.get(split)
        intervals = None if inference is None else inference.methods.get(method)
        return None if intervals is None else intervals.outcomes.get(name)

    def comparisons(self, family: str) -> list[Comparison]:
        names = self.report.inference.families.get(family, [])
        return [self.report.inference.comparisons[n] for n in names]

    def has_split(self, split: str) -> Callable[[MethodEntry], bool]:
        return lambda e: split in e.info.splits

    @staticmethod
    def accounts(entry: MethodEntry) -> bool:
        return not entry.info.verdict_only
