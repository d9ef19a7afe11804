"""``reasonbench tables``: every table (md/csv/tex) and figure (png) from metrics + dataset stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.io import OutputDir
from reasonbench.reports import figures, tables
from reasonbench.reports.render import Table


def all_tables(
    metrics: Mapping[str, Any],
    stats: Mapping[str, Any],
    paper: Mapping[str, Any],
    methods: Mapping[str, str],
) -> list[Table]:
    main = [methods["direct_receipt"], methods["cube"]]
    every = [*main, "tfidf", "majority"]
    return [
        tables.dataset_statistics(stats, paper["dataset"]),
        tables.surface_diagnostics(metrics, paper),
        tables.primary_comparison(metrics, paper, methods),
        tables.structural_subgroups(metrics, paper, every),
        tables.verdict_receipt_separation(metrics, paper, every),
        tables.paired_consistency(metrics, paper, every),
        tables.selective_debt(metrics, paper, every),
        tables.cardinality(metrics, paper, methods["cardinality"]),
        tables.permutation_augmentation(
            metrics, paper, [methods["permaug_direct"], methods["permaug_cube"]]
        ),
    ]


def write_reports(
    metrics: Mapping[str, Any],
    stats: Mapping[str, Any],
    paper: Mapping[str, Any],
    methods: Mapping[str, str],
    out_dir: Path,
    overwrite: bool = False,
) -> dict[str, Sequence[str]]:
    written_tables = []
    index = ["# Results", "", f"Data manifest sha256: `{metrics.get('data_manifest_sha256')}`", ""]
    every = [methods["direct_receipt"], methods["cube"], "tfidf", "majority"]
    figs = []
    with OutputDir(out_dir, "tables", overwrite) as out:
        for table in all_tables(metrics, stats, paper, methods):
            table.write(out)
            written_tables.append(table.name)
            index.append(table.markdown())
        for name, ok in (
            (
                "coverage_debt",
                figures.coverage_debt(metrics, every, out, "figures/coverage_debt.png"),
            ),
            ("forest", figures.forest(metrics, out, "figures/forest.png")),
            (
                "consistency",
                figures.consistency_bars(metrics, every, out, "figures/consistency.png"),
            ),
        ):
            if ok:
                figs.append(name)
                index.append(f"![{name}](figures/{name}.png)\n")
        out.write_text("README.md", "\n".join(index))
    return {"tables": written_tables, "figures": figs}
