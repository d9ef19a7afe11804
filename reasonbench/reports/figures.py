"""Plots where a picture beats a table: coverage–debt curves, a forest plot, consistency bars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: figures are files, never windows
import matplotlib.pyplot as plt  # noqa: E402

from reasonbench.io import OutputDir  # noqa: E402
from reasonbench.reports.lookup import dig, seed_mean  # noqa: E402

Metrics = Mapping[str, Any]
PNG_META = {"Software": None}  # no version stamp, so the bytes depend on the data only


def _save(fig: Any, out: OutputDir, rel: str) -> None:
    with out.writing(rel) as tmp:
        fig.savefig(tmp, format="png", dpi=130, bbox_inches="tight", metadata=PNG_META)
    plt.close(fig)


def coverage_debt(metrics: Metrics, methods: Sequence[str], out: OutputDir, rel: str) -> bool:
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    drawn = False
    for m in methods:
        for seed, entry in sorted((dig(metrics, "methods", m, "seeds") or {}).items())[:1]:
            for source, curve in sorted((entry.get("selective") or {}).items()):
                points = [
                    (p["coverage"], p["reason_debt"])
                    for p in curve
                    if p["coverage"] is not None and p["reason_debt"] is not None
                ]
                if points:
                    xs, ys = zip(*points, strict=True)
                    ax.plot(
                        [100 * x for x in xs],
                        [100 * y for y in ys],
                        marker="o",
                        label=f"{m} ({source}, seed {seed})",
                    )
                    drawn = True
    ax.set_xlabel("accepted-change coverage (%)")
    ax.set_ylabel("reason debt (%)")
    ax.set_title("Coverage–debt on the locked test")
    if drawn:
        ax.legend(fontsize=7)
    _save(fig, out, rel)
    return drawn


def forest(metrics: Metrics, out: OutputDir, rel: str) -> bool:
    rows = []
    for method, outcomes in sorted((dig(metrics, "inference", "methods") or {}).items()):
        for outcome, ci in sorted(outcomes.items()):
            rows.append((f"{method}: {outcome.replace('_', ' ')}", ci))
    for name, comp in sorted((dig(metrics, "inference", "comparisons") or {}).items()):
        for outcome, ci in sorted((comp.get("outcomes") or {}).items()):
            rows.append((f"{name}: {outcome.replace('_', ' ')} (Δ)", ci))
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(6.5, 0.4 * len(rows) + 1))
    for i, (_, ci) in enumerate(rows):
        ax.errorbar(
            100 * ci["estimate"],
            i,
            xerr=[[100 * (ci["estimate"] - ci["low"])], [100 * (ci["high"] - ci["estimate"])]],
            fmt="o",
            color="black",
            capsize=3,
        )
    ax.set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=7)
    ax.axvline(0, color="grey", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("percentage points (95% hierarchical bootstrap CI)")
    ax.set_title("Effects on the locked test")
    _save(fig, out, rel)
    return True


def consistency_bars(metrics: Metrics, methods: Sequence[str], out: OutputDir, rel: str) -> bool:
    kinds = ("inverse", "permutation", "distractor")
    present = [m for m in methods if dig(metrics, "methods", m)]
    if not present:
        return False
    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.8 / len(present)
    for j, m in enumerate(present):
        values = [seed_mean(metrics, m, "consistency", k, "consistency") for k in kinds]
        ax.bar(
            [i + j * width for i in range(len(kinds))],
            [100 * (v or 0) for v in values],
            width,
            label=m,
        )
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(kinds))], kinds)
    ax.set_ylabel("consistency (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Paired consistency per control")
    ax.legend(fontsize=7)
    _save(fig, out, rel)
    return True
