"""Benchmark statistics beside the paper's figures (dataset card, manifest, tables).

Per-stratum quantities come from the build's strata, in the config's order: each stratum's unit
count is stored as ``<stratum>_<unit label>`` (:func:`reasonbench.strata.base.unit_label`), and
the locked units are summed over every stratum, so a new stratum is counted without naming it
here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.assembly.spec import SPLITS
from reasonbench.io.manifest import stat_label
from reasonbench.paper_figures import paper_figures
from reasonbench.strata.base import Stratum, unit_label

__all__ = ["benchmark_stats", "stats_table"]


def _units(rows: Sequence[Mapping[str, Any]], stratum: str) -> int:
    return len({r["unit_id"] for r in rows if r["stratum"] == stratum})


def benchmark_stats(
    splits: Mapping[str, Sequence[Mapping[str, Any]]], strata: Mapping[str, Stratum]
) -> dict[str, Any]:
    """The statistics of a build of ``strata`` (name -> stratum, in the config's order)."""
    main = [r for s in SPLITS for r in splits.get(s, ())]
    locked = splits.get("test_locked", ())
    locked_units = [_units(locked, name) for name in strata]
    sizes = Counter(r["min_receipt_size"] for r in main if r["changed"])
    return {
        "main_cases": len(main),
        "changed": sum(bool(r["changed"]) for r in main),
        "stable": sum(not r["changed"] for r in main),
        "ambiguous": sum(bool(r["ambiguous"]) for r in main),
        "receipt_sizes": ", ".join(str(s) for s in sorted(sizes)),
        "locked_examples": len(locked),
        "locked_units": f"{sum(locked_units)} ({' + '.join(str(n) for n in locked_units)})",
        "controls": len(splits.get("controls_locked", ())),
        **{f"{name}_{unit_label(s)}": _units(main, name) for name, s in strata.items()},
        "receipt_size_distribution": {str(k): sizes[k] for k in sorted(sizes)},
        "split_sizes": {s: len(v) for s, v in splits.items()},
    }


def stats_table(stats: Mapping[str, Any], strata: Sequence[str]) -> str:
    """Markdown table: our value beside the paper's (``strata``: the build's, for the labels)."""
    lines = ["| quantity | reasonbench | paper |", "|---|---|---|"]
    for key, paper in paper_figures()["dataset"].items():
        lines.append(f"| {stat_label(key, strata)} | {stats.get(key, '—')} | {paper} |")
    return "\n".join(lines)
