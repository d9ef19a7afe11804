"""``reasonbench tables``: every table (md/csv/tex) and figure (png) from metrics + dataset stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.analysis.record import MetricsReport
from reasonbench.io import OutputDir
from reasonbench.reports import figures
from reasonbench.reports.curves import RunCurve
from reasonbench.reports.lookup import View
from reasonbench.reports.render import Table, rounded
from reasonbench.reports.tables import all_tables

__all__ = ["all_tables", "build_tables", "write_reports"]


def build_tables(
    metrics: Mapping[str, Any] | MetricsReport,
    stats: Mapping[str, Any],
    paper: Mapping[str, Any],
    methods: Mapping[str, Any],
    curves: Sequence[RunCurve] = (),
    *,
    strata: Sequence[str],
) -> tuple[View, list[Table]]:
    """The report view and every table (``methods``: the role map, conf/methods/paper.yaml;
    ``curves``: learning curves of training runs; ``strata``: the benchmark's, in its config's
    order, which ``stats`` sums over; required, as a forgotten one would label the locked units
    of no stratum)."""
    report = metrics if isinstance(metrics, MetricsReport) else MetricsReport.from_json(metrics)
    view = View(report, methods, curves)
    return view, all_tables(view, stats, paper, strata)


def write_reports(
    metrics: Mapping[str, Any] | MetricsReport,
    stats: Mapping[str, Any],
    paper: Mapping[str, Any],
    methods: Mapping[str, Any],
    out_dir: Path,
    overwrite: bool = False,
    curves: Sequence[RunCurve] = (),
    *,
    strata: Sequence[str],
) -> dict[str, Sequence[str]]:
    """``tables/<name>.{md,csv,tex}``, ``figures/<name>.png`` and a README indexing them
    (``curves``: learning curves of training runs, :mod:`reasonbench.reports.curves`).
    Returns the table names, every figure written, and those that say "no data"."""
    view, tables = build_tables(metrics, stats, paper, methods, curves, strata=strata)
    # figures plot the metrics at the tables' precision (render.DECIMALS), so a fitted float that
    # differs in its last digits on another CPU moves no pixel
    plotted = View(MetricsReport.from_json(rounded(view.report.to_json())), methods, curves)
    index = [
        "# Results",
        "",
        f"Data manifest sha256: `{view.report.data_manifest_sha256}`",
        "",
    ]
    written, empty = [], []
    with OutputDir(out_dir, "tables", overwrite) as out:
        for table in tables:
            table.write(out)
            index.append(table.markdown())

        for name, draw in figures.FIGURES.items():
            if not draw(plotted, out, f"figures/{name}.png"):
                empty.append(name)
            written.append(name)
            index.append(f"![{name}](figures/{name}.png)\n")
        out.write_text("README.md", "\n".join(index))
    return {"tables": [t.name for t in tables], "figures": written, "no_data": empty}
