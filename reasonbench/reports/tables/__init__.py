"""The paper's tables from ``metrics.json``, each with the paper's value beside ours.

Every analyzed method appears: the paper roles first (a role that was not run still gets its row,
marked "not run"), then methods without a role in every table that applies to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.reports.curves import curve_table
from reasonbench.reports.lookup import View
from reasonbench.reports.render import Table
from reasonbench.reports.tables.cardinality import cardinality, cardinality_breakdown
from reasonbench.reports.tables.consistency import (
    augmentation,
    cell_agreement,
    paired_consistency,
    verdict_receipt_separation,
)
from reasonbench.reports.tables.dataset import dataset_statistics
from reasonbench.reports.tables.methods import (
    all_metrics,
    comparisons,
    primary_comparison,
    replication,
    surface_diagnostics,
)
from reasonbench.reports.tables.selective import calibration, selective_debt
from reasonbench.reports.tables.subgroups import shift, structural_subgroups, subgroup_differences
from reasonbench.reports.tables.two_plane import two_plane

__all__ = ["TABLES", "all_tables", "dataset_statistics"]


TABLES = (
    "dataset_statistics", "surface_diagnostics", "primary_comparison", "replication",
    "comparisons", "all_metrics", "structural_subgroups", "subgroup_differences", "verdict_receipt_separation",
    "paired_consistency", "cell_agreement", "augmentation", "selective_debt", "calibration",
    "cardinality", "cardinality_breakdown", "shift", "two_plane", "learning_curve",
)  # fmt: skip


def all_tables(
    view: View, stats: Mapping[str, Any], figures: Mapping[str, Any], strata: Sequence[str]
) -> list[Table]:
    out = [
        dataset_statistics(stats, figures, view.report.verdict_mix, strata),
        surface_diagnostics(view, figures),
        primary_comparison(view, figures),
        replication(view, figures),
        comparisons(view, figures),
        all_metrics(view),
        structural_subgroups(view),
        subgroup_differences(view, figures),
        verdict_receipt_separation(view, figures),
        paired_consistency(view, figures),
        cell_agreement(view),
        augmentation(view, figures),
        selective_debt(view, figures),
        calibration(view),
        cardinality(view, figures),
        cardinality_breakdown(view),
        shift(view),
        two_plane(view),
        curve_table(view.curves),
    ]
    assert tuple(t.name for t in out) == TABLES
    return out
