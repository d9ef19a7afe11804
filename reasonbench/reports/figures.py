"""Plots where a picture beats a table: coverage–debt curves, a forest plot (estimates and
differences on separate axes), consistency bars per stratum, reliability diagrams (seed means with
a band), the two-plane audit's executions–debt and executions–recall curves and the training runs'
learning curves. A figure without data is still written, and says "no data" — never an empty axis
that looks like a result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: figures are files, never windows
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from reasonbench.analysis.record import CalibrationFit  # noqa: E402
from reasonbench.io import OutputDir  # noqa: E402
from reasonbench.reports.curves import MEASURES, percent  # noqa: E402
from reasonbench.reports.lookup import View, seed_mean  # noqa: E402
from reasonbench.reports.tables.consistency import (  # noqa: E402
    NEAR_CONSTANT,
    kind_label,
    near_constant,
    ordered_kinds,
)

__all__ = [
    "FIGURES",
    "PNG_META",
    "consistency_bars",
    "coverage_debt",
    "forest",
    "learning_curve",
    "reliability",
    "two_plane",
]

PNG_META = {"Software": None}  # no version stamp, so the bytes depend on the data only
POOLED = "pooled"


def _save(fig: object, out: OutputDir, rel: str) -> None:
    with out.writing(rel) as tmp:
        fig.savefig(tmp, format="png", dpi=130, bbox_inches="tight", metadata=PNG_META)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]


def _no_data(ax: object, why: str) -> None:
    ax.text(0.5, 0.5, f"no data\n({why})", ha="center", va="center", fontsize=11, color="#555",  # type: ignore[attr-defined]
            transform=ax.transAxes)  # type: ignore[attr-defined]  # fmt: skip
    ax.set_xticks([])  # type: ignore[attr-defined]
    ax.set_yticks([])  # type: ignore[attr-defined]


def _empty(out: OutputDir, rel: str, title: str, why: str, size: tuple[float, float]) -> bool:
    """A figure that says why it has no data (a report never drops a figure); ``False``."""
    fig, ax = plt.subplots(figsize=size)
    ax.set_title(title)
    _no_data(ax, why)
    _save(fig, out, rel)
    return False


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _hidden_under(points: dict[str, set[tuple[float, float]]]) -> dict[str, str]:
    """Each curve whose points all coincide with an earlier-drawn curve's: the one it hides
    under (the legend says so, so that no method seems missing)."""
    out: dict[str, str] = {}
    names = list(points)
    for i, name in enumerate(names):
        under = [other for other in names[:i] if points[name] <= points[other]]
        if points[name] and under:
            out[name] = under[0]
    return out


def coverage_debt(view: View, out: OutputDir, rel: str) -> bool:
    """Per method and confidence source, on the **raw** confidence scale (the calibrated scales'
    selective points are in the selective_debt table): mean over seeds of reason debt at each
    target coverage against mean realised coverage, with a band from the lowest to the highest
    seed. Each method has its own hollow marker, drawn smaller than the ones before it, so points
    that coincide stay visible; a curve that lies wholly under another says so in the legend."""
    fig, ax = plt.subplots(figsize=(6, 4))
    curves: dict[str, tuple[list[float], list[float], list[float], list[float]]] = {}
    for method, entry in sorted(view.report.methods.items()):
        seeds = list(entry.seeds.values())
        sources = sorted({src for s in seeds for src in s.selective.get("raw", {})})
        for source in sources:
            runs = [c for s in seeds if (c := s.selective.get("raw", {}).get(source))]
            xs, ys, lo, hi = [], [], [], []
            for i in range(len(runs[0])):
                debts = [d for c in runs if (d := c[i].reason_debt) is not None]
                cov = seed_mean([c[i].coverage for c in runs])
                if not debts or cov is None:
                    continue  # undefined debt: no point, never a zero
                xs.append(100 * cov)
                ys.append(100 * float(np.mean(debts)))
                lo.append(100 * min(debts))
                hi.append(100 * max(debts))
            if xs:
                curves[f"{method} ({source}, {len(runs)} seeds)"] = (xs, ys, lo, hi)
    hidden = _hidden_under(
        {k: {(round(x, 2), round(y, 2)) for x, y in zip(c[0], c[1], strict=True)}
         for k, c in curves.items()}
    )  # fmt: skip
    for j, (label, (xs, ys, lo, hi)) in enumerate(curves.items()):
        shown = label if label not in hidden else f"{label}: under {hidden[label]}"
        (line,) = ax.plot(xs, ys, marker=MARKERS[j % len(MARKERS)], ms=max(3.0, 9.0 - 1.5 * j),
                          mfc="none", label=shown)  # fmt: skip
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
    ax.set_title("Coverage–debt on the locked test, raw confidence\n"
                 "(mean over seeds, band: min–max)", fontsize=9)  # fmt: skip
    if curves:
        ax.set_xlabel("accepted-change coverage (%)")
        ax.set_ylabel("reason debt (%)")
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:
        _no_data(ax, "no method accepted a predicted change")
    _save(fig, out, rel)
    return bool(curves)


Interval = tuple[str, float, float, float]  # label, estimate, low, high (rates)


def _estimates(view: View) -> list[Interval]:
    rows = []
    for split, inference in sorted(view.report.inference.splits.items()):
        for method, intervals in sorted(inference.methods.items()):
            for outcome, ci in intervals.outcomes.items():
                label = f"{method}: {outcome.replace('_', ' ')} ({split})"
                rows.append((label, ci.estimate, ci.low, ci.high))
    return rows


def _differences(view: View) -> list[Interval]:
    """Every comparison a − b and every consistency repair after − before."""
    rows = []
    for name, comp in view.report.inference.comparisons.items():
        for outcome, e in comp.outcomes.items():
            rows.append((f"{name}: {outcome.replace('_', ' ')}", e.estimate, e.low, e.high))
    for name, fix in view.report.inference.repairs.items():
        if fix.pooled is not None:
            ci = fix.pooled
            rows.append((f"{name}: {fix.kind} consistency", ci.estimate, ci.low, ci.high))
    return rows


def _intervals(ax: Any, rows: list[Interval]) -> None:
    for i, (_, est, low, high) in enumerate(rows):
        ax.errorbar(100 * est, i, xerr=[[100 * (est - low)], [100 * (high - est)]], fmt="o",
                    color="black", capsize=3, ms=3)  # fmt: skip
    ax.set_yticks(range(len(rows)), [label for label, *_ in rows], fontsize=6)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # first row on top


def forest(view: View, out: OutputDir, rel: str) -> bool:
    """Two panels, never one axis for both: the methods' estimates (%, 0–100) above, the
    differences (a − b, after − before; points, with a zero line) below."""
    estimates, differences = _estimates(view), _differences(view)
    if not estimates and not differences:
        title = "Estimates and differences (95% hierarchical-bootstrap CI)"
        return _empty(out, rel, title, "no method on a bootstrapped split", (6.5, 2.5))
    heights = [max(len(estimates), 1), max(len(differences), 1)]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(6.5, 0.28 * sum(heights) + 2.2), height_ratios=heights,
        layout="constrained",
    )  # fmt: skip
    top.set_title("Estimates, mean over each method's seeds (95% bootstrap CI)", fontsize=9)
    if estimates:
        _intervals(top, estimates)
        top.set_xlim(-2, 102)  # a point at 0 or 100 stays visible
        top.set_xlabel("accuracy (%)")
    else:
        _no_data(top, "no method on a bootstrapped split")
    bottom.set_title("Differences a − b and repairs after − before (95% CI)", fontsize=9)
    if differences:
        _intervals(bottom, differences)
        bottom.axvline(0, color="grey", lw=0.8)
        bottom.set_xlabel("difference (percentage points)")
    else:
        _no_data(bottom, "no comparison was run")
    _save(fig, out, rel)
    return True


def _consistency(entry: Any, stratum: str, kind: str) -> float | None:
    """Mean over the method's seeds of one kind's consistency, pooled or in one stratum."""
    values = []
    for s in entry.seeds.values():
        c = s.consistency
        table = None if c is None else c.pooled if stratum == POOLED else c.strata.get(stratum)
        rate = None if table is None else table.get(kind)
        values.append(None if rate is None else rate.consistency)
    return seed_mean(values)


def consistency_bars(view: View, out: OutputDir, rel: str) -> bool:
    """Consistency per control kind, one panel per stratum (pooled first), one bar
    per method (mean over its seeds): the strata differ, which the pooled panel alone hides."""
    methods = {
        m: e for m, e in sorted(view.report.methods.items())
        if any(s.consistency is not None for s in e.seeds.values())
    }  # fmt: skip
    strata = sorted({st for e in methods.values() for s in e.seeds.values() if s.consistency
                     for st in s.consistency.strata})  # fmt: skip
    panels = [POOLED, *strata]
    found = {k for e in methods.values() for s in e.seeds.values() if s.consistency
             for k in s.consistency.pooled}  # fmt: skip
    kinds = [k for k in ordered_kinds(found)
             if any(_consistency(e, POOLED, k) is not None for e in methods.values())]  # fmt: skip
    if not methods or not kinds:
        title = "Paired consistency per control and stratum"
        return _empty(out, rel, title, "no method predicted the locked controls", (6.5, 3.6))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.4 * len(panels) + 1.5, 3.6),
                             sharey=True, squeeze=False, layout="constrained")  # fmt: skip
    width = 0.8 / len(methods)
    for ax, stratum in zip(axes[0], panels, strict=True):
        for j, (method, entry) in enumerate(methods.items()):
            xs = [i + j * width for i in range(len(kinds))]
            vs = [_consistency(entry, stratum, k) for k in kinds]
            flat = near_constant(view, method, stratum)
            ax.bar(xs, [100 * (v or 0.0) for v in vs], width, label=method, color=f"C{j}",
                   hatch="////" if flat else None, edgecolor="white" if flat else None)  # fmt: skip
            for x, v in zip(xs, vs, strict=True):
                if v is None:
                    ax.text(x, 1, "—", ha="center", fontsize=7)  # undefined, not 0
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(kinds))],
                      [kind_label(k) for k in kinds], fontsize=8)  # fmt: skip
        ax.set_title(stratum if stratum != POOLED else "pooled (every stratum)", fontsize=9)
        ax.set_ylim(0, 100)
    axes[0][0].set_ylabel("consistency (%), mean over seeds")
    handles, labels = axes[0][-1].get_legend_handles_labels()
    handles.append(Patch(facecolor="lightgrey", hatch="////", edgecolor="white"))
    labels.append(f"hatched: near-constant output\n(top answer ≥ {100 * NEAR_CONSTANT:.0f} %)")
    axes[0][-1].legend(handles, labels, fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                       frameon=False)  # fmt: skip
    fig.suptitle("Paired consistency per control and stratum, locked test", fontsize=10)
    _save(fig, out, rel)
    return True


MIN_BIN = (
    5  # a reliability bin with fewer records (in every seed) is not drawn: one record is 0 or 1
)


def _reliability_curve(fits: list[CalibrationFit]) -> tuple[list[float], ...] | None:
    """Per bin with at least :data:`MIN_BIN` records in some seed: the bin's centre, the mean
    over those seeds of the share of right accounts, and the lowest and highest seed's share. The centre, not the mean
    confidence: it is exact, so a fitted confidence's last digits move no point (docs/reproducibility.md), and the
    bins are 1/bins wide, so a centre is within half a bin of the confidences it holds."""
    if not fits:
        return None
    xs, ys, lo, hi = [], [], [], []
    for i, b in enumerate(fits[0].bins):
        accuracy = [
            a for f in fits if i < len(f.bins) and f.bins[i].count >= MIN_BIN
            if (a := f.bins[i].accuracy) is not None
        ]  # fmt: skip
        if not accuracy:
            continue
        xs.append((b.low + b.high) / 2)
        ys.append(float(np.mean(accuracy)))
        lo.append(min(accuracy))
        hi.append(max(accuracy))
    return (xs, ys, lo, hi) if xs else None


def reliability(view: View, out: OutputDir, rel: str) -> bool:
    """Reliability diagrams of each method's confidence sources, raw and calibrated: per
    confidence bin (at its centre) the mean over the method's seeds of the share of right
    accounts, the band from the lowest to the highest seed."""
    panels = []
    for method, entry in sorted(view.report.methods.items()):
        seeds = list(entry.seeds.values())
        for source in sorted({src for s in seeds for src in s.calibration}):
            sources = [s.calibration[source] for s in seeds if source in s.calibration]
            scales = ["raw", *sorted({k for c in sources for k in c.maps})]
            fits = {
                scale: [
                    f for c in sources
                    if (f := c.raw if scale == "raw" else c.maps.get(scale)) is not None
                    and f.fitted
                ]
                for scale in scales
            }  # fmt: skip
            n = f"{len(seeds)} seed{'s' if len(seeds) != 1 else ''}"
            panels.append((f"{method} ({n})\n{source}", fits))
    columns = min(3, max(len(panels), 1))
    nrows = max(1, -(-len(panels) // columns))
    fig, axes = plt.subplots(nrows, columns, figsize=(3.4 * columns, 3.2 * nrows + 0.6),
                             squeeze=False, layout="constrained")  # fmt: skip
    if not panels:
        _no_data(axes[0][0], "no confidence source with predicted changes")
        axes[0][0].set_title("Reliability on the locked test")
        _save(fig, out, rel)
        return False
    for ax, (title, fits) in zip(axes.flat, panels, strict=False):
        ax.set_title(title, fontsize=7)
        curves = 0
        for j, (scale, fitted) in enumerate(fits.items()):
            curve = _reliability_curve(fitted)
            if curve is None:
                continue
            x, y, lo, hi = curve
            ece = seed_mean([f.ece for f in fitted])
            shown = "—" if ece is None else f"{100 * ece:.1f}%"
            ax.plot(x, y, marker="o", ms=3, color=f"C{j}", label=f"{scale} (mean ECE {shown})")
            ax.fill_between(x, lo, hi, color=f"C{j}", alpha=0.2, lw=0)
            curves += 1
        if not curves:
            _no_data(ax, "no predicted change with a confidence")
            continue
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.suptitle("Reliability on the locked test: mean over seeds per bin, band: lowest to "
                 f"highest seed; bins with fewer than {MIN_BIN} records are not drawn",
                 fontsize=9)  # fmt: skip
    fig.supxlabel("confidence (bin centre)")
    fig.supylabel("share of right accounts")
    _save(fig, out, rel)
    return True


def two_plane(view: View, out: OutputDir, rel: str) -> bool:
    """Executions spent against reason debt and against gold-change recall over the routing
    grid (accept all → τ = 0 … 1 → certify all), one line per audited method (seed means)."""
    fig, (debt_ax, recall_ax) = plt.subplots(1, 2, figsize=(9, 3.6), sharex=True)
    drawn = False
    for method, entry in sorted(view.report.methods.items()):
        curves = [s.two_plane for s in entry.seeds.values() if s.two_plane]
        if not curves:
            continue
        at = [[c[i] for c in curves] for i in range(len(curves[0]))]
        xs = [seed_mean([float(p.executions) for p in ps]) or 0.0 for ps in at]
        for ax, get in ((debt_ax, "reason_debt"), (recall_ax, "gold_change_recall")):
            ys = [seed_mean([getattr(p, get) for p in ps]) for ps in at]
            kept = [(x, 100 * y) for x, y in zip(xs, ys, strict=True) if y is not None]
            if kept:  # an undefined debt (nothing accepted) is no point, never a zero
                ax.plot(*zip(*kept, strict=True), marker="o", ms=3, label=method)
                drawn = True
    debt_ax.set_title("Reason debt of what is accepted")
    recall_ax.set_title("Gold-change recall of the system")
    fig.suptitle("Two-plane audit: this project's extension (the paper compares no two-plane "
                 "system)", fontsize=9)  # fmt: skip
    if drawn:
        for ax, label in ((debt_ax, "reason debt (%)"), (recall_ax, "gold-change recall (%)")):
            ax.set_xlabel("adjudicator executions spent")
            ax.set_ylabel(label)
        recall_ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:
        for ax in (debt_ax, recall_ax):
            _no_data(ax, "no method with a two-plane audit")
    _save(fig, out, rel)
    return drawn


def learning_curve(view: View, out: OutputDir, rel: str) -> bool:
    """Exact receipt (solid) and endpoint accuracy (dashed) against training tokens."""
    curves = view.curves
    fig, ax = plt.subplots(figsize=(6, 4))
    if not curves:
        _no_data(ax, "no run given: tables curves=[<run dir>, ...]")
        _save(fig, out, rel)
        return False
    for i, c in enumerate(curves):
        colour = f"C{i}"
        tokens = [int(p["tokens"] or 0) / 1e6 for p in c.points]
        for (key, label), style in zip(MEASURES[:2], ("-", "--"), strict=True):
            known = [(x, percent(p[key])) for x, p in zip(tokens, c.points, strict=True)]
            xs, ys = [x for x, y in known if y is not None], [y for _, y in known if y is not None]
            if ys:  # a verdict-only target has no receipt or endpoints
                ax.plot(xs, ys, style, marker="o", ms=3, color=colour, label=f"{c.method}: {label}")
    ax.set_xlabel("training tokens (millions)")
    ax.set_ylabel(f"accuracy on {curves[0].split} sample (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    # beside the axes, never over a line (the direct receipt's endpoints run along the bottom)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    _save(fig, out, rel)
    return True


FIGURES: dict[str, Callable[[View, OutputDir, str], bool]] = {
    "coverage_debt": coverage_debt,
    "forest": forest,
    "consistency": consistency_bars,
    "reliability": reliability,
    "two_plane": two_plane,
    "learning_curve": learning_curve,
}
