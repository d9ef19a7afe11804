"""The benchmark statistics table: the manifest's statistics beside the paper's, and the gold
revised-verdict mix per stratum (from ``metrics.json``), which bounds what a majority diagnostic
can reach."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.analysis.metrics import REVISED_VERDICT_ACCURACY
from reasonbench.baselines.majority import most_frequent
from reasonbench.io.manifest import stat_label
from reasonbench.reports.render import Table, fmt
from reasonbench.reports.tables.common import Cell, paper, pct

__all__ = ["MIX_SPLITS", "dataset_statistics", "majority_share"]

Mix = Mapping[str, Mapping[str, Mapping[str, int]]]  # split -> stratum -> verdict -> count
TRAIN, LOCKED = "train", "test_locked"
MIX_SPLITS = (TRAIN, LOCKED)  # what the majority diagnostic learns from, and is scored on


def majority_share(mix: Mix) -> float | None:
    """The locked test's share of each stratum's most frequent training verdict: the majority
    diagnostic's revised-verdict accuracy (``baselines/majority.py`` picks the same verdict)."""
    train, locked = mix.get(TRAIN, {}), mix.get(LOCKED, {})
    total = sum(sum(counts.values()) for counts in locked.values())
    if not total or not train:
        return None
    hits = sum(
        counts.get(most_frequent(train[stratum]), 0)
        for stratum, counts in locked.items()
        if train.get(stratum)
    )
    return hits / total


def _mix_cell(counts: Mapping[str, int]) -> str:
    total = sum(counts.values())
    shares = ", ".join(f"{v} {fmt(100 * n / total)} %" for v, n in counts.items())
    return f"{shares} (n = {total})"


def dataset_statistics(
    stats: Mapping[str, Any], figures: Mapping[str, Any], mix: Mix, strata: Sequence[str]
) -> Table:
    """``stats`` of a benchmark of ``strata`` (its config's order) beside the paper's."""
    rows: list[list[Cell]] = [
        [stat_label(k, strata), stats.get(k), v]
        for k, v in (paper(figures, "dataset") or {}).items()
    ]
    for split in MIX_SPLITS:
        for stratum, counts in mix.get(split, {}).items():
            rows.append([f"revised-verdict mix, {split}, {stratum}", _mix_cell(counts), None])
    share = majority_share(mix)
    majority = paper(figures, "surface", "majority", REVISED_VERDICT_ACCURACY)
    if share is not None:
        rows.append([
            "locked test share of each stratum's most frequent train verdict",
            pct(share),
            majority,
        ])  # fmt: skip
    return Table(
        "dataset_statistics",
        "Benchmark statistics",
        ["quantity", "reasonbench", "paper"],
        rows,
        "Revised-verdict mix: gold revised verdicts per stratum (%). The paper gives no mix; the "
        f"last row is what its majority diagnostic's revised-verdict accuracy ({majority} %) "
        "measures, the locked test's share of each stratum's most frequent training verdict "
        "(surface_diagnostics explains the gap).",
    )
