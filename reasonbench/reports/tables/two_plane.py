"""The two-plane audit table (issue 18): per method and route, what trusted execution spent and
what the system ends with (``analysis/two_plane.py``; docs/analysis.md, "The two-plane audit").

Rows: every role of the role map whose target proposes receipts — a role added to the map (a
user's own model) included, a role whose run has no predictions marked "not run" — then every
analyzed method without a role that has an audit. Numbers are means over the method's own seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reasonbench.analysis.record import MethodEntry
from reasonbench.analysis.scoring import carried
from reasonbench.analysis.two_plane import TwoPlanePoint
from reasonbench.reports.lookup import Row, seed_mean
from reasonbench.reports.render import Table
from reasonbench.reports.tables.common import NOT_RUN, Cell, View, pct

__all__ = ["HEADER", "audit_rows", "two_plane"]

HEADER = [
    "method", "role", "route (τ)", "seeds", "predicted changes", "uncalibrated", "certified",
    "accepted", "executions", "share of exhaustive", "reason debt", "gold-change recall",
    "missed gold changes",
]  # fmt: skip


def _proposes(target: str | None) -> bool:
    return target is None or not carried(target).verdict_only


def _audited(entry: MethodEntry) -> bool:
    return any(s.two_plane for s in entry.seeds.values())


def audit_rows(view: View) -> list[Row]:
    """Every role of the map that proposes receipts (in map order), then every other audited
    method."""
    proposing = []
    for name, role in view.roles.items():
        entry = view.entry(role.method)
        if _proposes(role.target if entry is None else entry.info.target):
            proposing.append(name)
    return view.methods(proposing, _audited)


def _mean(points: Sequence[TwoPlanePoint], get: Callable[[TwoPlanePoint], float | None]) -> Cell:
    mean = seed_mean([get(p) for p in points])
    return int(mean) if mean is not None and mean == int(mean) else mean  # counts stay integers


def two_plane(view: View) -> Table:
    rows: list[list[Cell]] = []
    for row in audit_rows(view):
        curves = [] if row.entry is None else [s.two_plane for s in row.entry.seeds.values()]
        curves = [c for c in curves if c]
        if not curves:
            rows.append([row.method, row.role, NOT_RUN, *[None] * (len(HEADER) - 3)])
            continue
        for i, point in enumerate(curves[0]):
            at = [c[i] for c in curves]
            rows.append([
                row.method, row.role, point.route, len(curves),
                _mean(at, lambda p: p.predicted_changes), _mean(at, lambda p: p.uncalibrated),
                _mean(at, lambda p: p.certified), _mean(at, lambda p: p.accepted),
                _mean(at, lambda p: p.executions), pct(seed_mean([p.execution_share for p in at])),
                pct(seed_mean([p.reason_debt for p in at])),
                pct(seed_mean([p.gold_change_recall for p in at])), _mean(at, lambda p: p.missed),
            ])  # fmt: skip
    return Table(
        "two_plane",
        "The two-plane audit on the locked test: routing predicted changes to trusted execution "
        "by calibrated confidence (%)",
        HEADER,
        rows,
        "A predicted change is certified (executed through the stratum's trusted adjudicator, "
        "adaptive certifier) when its isotonic-calibrated confidence is below τ or it has none; "
        "otherwise its predicted receipt is accepted uncertified. Executions: endpoints plus "
        "interior queries of the certified cases; share of exhaustive: executions / 2^k per "
        "certified case. Reason debt: wrong accounts / accepted (— when nothing is accepted). "
        "Recall: gold changes ending with the right receipt / gold changes (missed: predicted "
        "stable). Means over each method's own seeds. Wall time per certified case, against "
        "exhaustive execution: docs/performance.md, 'Two-plane audit'.",
    )
