"""Plots where a picture beats a table: coverage–debt curves, a forest plot, consistency bars,
reliability diagrams and the two-plane audit's executions–debt and executions–recall curves. A figure without data is still written, and says "no data" — never an
empty axis that looks like a result."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")  # headless: figures are files, never windows
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from reasonbench.controls import CONTROL_KINDS  # noqa: E402
from reasonbench.io import OutputDir  # noqa: E402
from reasonbench.reports.curves import MEASURES, percent  # noqa: E402
from reasonbench.reports.lookup import View, seed_mean  # noqa: E402

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


def _save(fig: object, out: OutputDir, rel: str) -> None:
    with out.writing(rel) as tmp:
        fig.savefig(tmp, format="png", dpi=130, bbox_inches="tight", metadata=PNG_META)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]


def _no_data(ax: object, why: str) -> None:
    ax.text(0.5, 0.5, f"no data\n({why})", ha="center", va="center", fontsize=11, color="#555",  # type: ignore[attr-defined]
            transform=ax.transAxes)  # type: ignore[attr-defined]  # fmt: skip
    ax.set_xticks([])  # type: ignore[attr-defined]
    ax.set_yticks([])  # type: ignore[attr-defined]


def coverage_debt(view: View, out: OutputDir, rel: str) -> bool:
    """Per method and confidence source (raw scale): mean over seeds of reason debt at each target
    coverage against mean realised coverage, with a band from the lowest to the highest seed."""
    fig, ax = plt.subplots(figsize=(6, 4))
    drawn = False
    for method, entry in sorted(view.report.methods.items()):
        seeds = list(entry.seeds.values())
        sources = sorted({src for s in seeds for src in s.selective.get("raw", {})})
        for source in sources:
            curves = [c for s in seeds if (c := s.selective.get("raw", {}).get(source))]
            xs, ys, lo, hi = [], [], [], []
            for i in range(len(curves[0])):
                debts = [d for c in curves if (d := c[i].reason_debt) is not None]
                cov = seed_mean([c[i].coverage for c in curves])
                if not debts or cov is None:
                    continue  # undefined debt: no point, never a zero
                xs.append(100 * cov)
                ys.append(100 * float(np.mean(debts)))
                lo.append(100 * min(debts))
                hi.append(100 * max(debts))
            if xs:
                (line,) = ax.plot(
                    xs, ys, marker="o", ms=3, label=f"{method} ({source}, {len(curves)} seeds)"
                )
                ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
                drawn = True
    ax.set_title("Coverage–debt on the locked test (mean over seeds, band: min–max)")
    if drawn:
        ax.set_xlabel("accepted-change coverage (%)")
        ax.set_ylabel("reason debt (%)")
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:
        _no_data(ax, "no method accepted a predicted change")
    _save(fig, out, rel)
    return drawn


def forest(view: View, out: OutputDir, rel: str) -> bool:
    rows = []
    for split, inference in sorted(view.report.inference.splits.items()):
        for method, intervals in sorted(inference.methods.items()):
            for outcome, ci in intervals.outcomes.items():
                rows.append(
                    (
                        f"{method}: {outcome.replace('_', ' ')} ({split})",
                        ci.estimate,
                        ci.low,
                        ci.high,
                    )
                )
    for name, comp in view.report.inference.comparisons.items():
        for outcome, e in comp.outcomes.items():
            rows.append((f"{name}: {outcome.replace('_', ' ')} (Δ)", e.estimate, e.low, e.high))
    fig, ax = plt.subplots(figsize=(6.5, 0.3 * max(len(rows), 4) + 1))
    ax.set_title("Effects (95% hierarchical-bootstrap CI)")
    if not rows:
        _no_data(ax, "no method on a bootstrapped split")
        _save(fig, out, rel)
        return False
    for i, (_, est, low, high) in enumerate(rows):
        ax.errorbar(100 * est, i, xerr=[[100 * (est - low)], [100 * (high - est)]], fmt="o",
                    color="black", capsize=3, ms=3)  # fmt: skip
    ax.set_yticks(range(len(rows)), [label for label, *_ in rows], fontsize=6)
    ax.axvline(0, color="grey", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("percentage points")
    _save(fig, out, rel)
    return True


def consistency_bars(view: View, out: OutputDir, rel: str) -> bool:
    """Pooled consistency per registered control kind, one bar per method (mean over seeds)."""
    kinds = [k for k in CONTROL_KINDS]
    values: dict[str, list[float | None]] = {}
    for method, entry in sorted(view.report.methods.items()):
        seeds = [s.consistency for s in entry.seeds.values() if s.consistency is not None]
        if seeds:
            values[method] = [
                seed_mean([c.pooled[k].consistency if k in c.pooled else None for c in seeds])
                for k in kinds
            ]
    kinds = [k for i, k in enumerate(kinds) if any(v[i] is not None for v in values.values())]
    values = {
        m: [v[i] for i, k in enumerate(CONTROL_KINDS) if k in kinds] for m, v in values.items()
    }
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    ax.set_title("Paired consistency per control (pooled over strata)")
    if not values or not kinds:
        _no_data(ax, "no method predicted the locked controls")
        _save(fig, out, rel)
        return False
    width = 0.8 / len(values)
    for j, (method, vs) in enumerate(values.items()):
        xs = [i + j * width for i in range(len(kinds))]
        ax.bar(xs, [100 * (v or 0.0) for v in vs], width, label=method)
        for x, v in zip(xs, vs, strict=True):
            if v is None:
                ax.text(x, 1, "—", ha="center", fontsize=7)  # undefined, not 0
    ax.set_xticks(
        [i + 0.4 - width / 2 for i in range(len(kinds))],
        [CONTROL_KINDS.get(k).label for k in kinds],
    )
    ax.set_ylabel("consistency (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    _save(fig, out, rel)
    return True


def reliability(view: View, out: OutputDir, rel: str) -> bool:
    """Reliability diagrams of each method's confidence sources (first seed), raw and calibrated."""
    panels = []
    for method, entry in sorted(view.report.methods.items()):
        first = next(iter(entry.seeds.values()), None)
        for source, calibration in sorted((first.calibration if first else {}).items()):
            panels.append((f"{method}\n{source}", [calibration.raw, *calibration.maps.values()]))
    columns = min(3, max(len(panels), 1))
    nrows = max(1, -(-len(panels) // columns))
    fig, axes = plt.subplots(nrows, columns, figsize=(3.2 * columns, 3.0 * nrows), squeeze=False)
    if not panels:
        _no_data(axes[0][0], "no confidence source with predicted changes")
        axes[0][0].set_title("Reliability on the locked test")
        _save(fig, out, rel)
        return False
    for ax, (title, fits) in zip(axes.flat, panels, strict=False):
        ax.set_title(title, fontsize=7)
        curves = 0
        for fit in fits:
            points = [(b.confidence, b.accuracy) for b in fit.bins if b.count]
            if fit.fitted and points:
                x, y = zip(*points, strict=True)
                ece = "—" if fit.ece is None else f"{100 * fit.ece:.1f}%"
                ax.plot(x, y, marker="o", ms=3, label=f"{fit.scale} (ECE {ece})")
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
    fig.supxlabel("confidence")
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
    ax.legend(fontsize=7, loc="lower right")
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
