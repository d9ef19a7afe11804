"""Benchmark statistics beside the paper's figures (dataset card, manifest, tables)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.assembly.spec import SPLITS
from reasonbench.io.manifest import STAT_LABELS
from reasonbench.paper_figures import paper_figures

__all__ = ["benchmark_stats", "stats_table"]


def benchmark_stats(splits: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, Any]:
    main = [r for s in SPLITS for r in splits.get(s, ())]
    locked = splits.get("test_locked", ())
    locked_units = {
        stratum: len({r["unit_id"] for r in locked if r["stratum"] == stratum})
        for stratum in ("organizational", "logical")
    }
    units = {
        stratum: len({r["unit_id"] for r in main if r["stratum"] == stratum})
        for stratum in ("organizational", "logical")
    }
    sizes = Counter(r["min_receipt_size"] for r in main if r["changed"])
    return {
        "main_cases": len(main),
        "changed": sum(bool(r["changed"]) for r in main),
        "stable": sum(not r["changed"] for r in main),
        "ambiguous": sum(bool(r["ambiguous"]) for r in main),
        "receipt_sizes": ", ".join(str(s) for s in sorted(sizes)),
        "locked_examples": len(locked),
        "locked_units": (
            f"{sum(locked_units.values())} ({locked_units['organizational']} + {locked_units['logical']})"
        ),
        "controls": len(splits.get("controls_locked", ())),
        "organizational_clauses": units["organizational"],
        "logical_worlds": units["logical"],
        "receipt_size_distribution": {str(k): sizes[k] for k in sorted(sizes)},
        "split_sizes": {s: len(v) for s, v in splits.items()},
    }


def stats_table(stats: Mapping[str, Any]) -> str:
    """Markdown table: our value beside the paper's."""
    lines = ["| quantity | reasonbench | paper |", "|---|---|---|"]
    for key, paper in paper_figures()["dataset"].items():
        lines.append(f"| {STAT_LABELS[key]} | {stats.get(key, '—')} | {paper} |")
    return "\n".join(lines)
