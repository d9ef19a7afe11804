"""The card's figures as PNG bytes (matplotlib, headless, no version stamp: bytes follow data).

Embedded as base64 in the HTML card and written beside the Markdown card.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from reasonbench.invariance.metrics import Estimate, excess  # noqa: E402
from reasonbench.judge_card.blocks import UNDEFINED  # noqa: E402
from reasonbench.judge_card.record import JudgeCard  # noqa: E402
from reasonbench.reports.figures import PNG_META  # noqa: E402

__all__ = ["FIGURES", "figures"]

FIGURES = {
    "delta_flip": "Excess flip rate per transform family (95% clustered bootstrap CI)",
    "threshold_shift": "Threshold shifts: what the judge did vs what execution requires",
    "pis_components": "PIS: penalty of each principle (times S), per parse-failure handling",
}
HANDLING_COLOURS = {"excluded": "#35618f", "imputed": "#d08c2b"}


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata=PNG_META)
    plt.close(fig)
    return buffer.getvalue()


def _bar(ax: Any, x: float, e: Estimate, width: float, colour: str, label: str) -> None:
    value = 100 * (e.value or 0.0)
    err = None
    if e.value is not None and e.low is not None and e.high is not None:
        err = [[max(0.0, value - 100 * e.low)], [max(0.0, 100 * e.high - value)]]
    ax.bar([x], [value], width, yerr=err, color=colour, capsize=3, label=label)


def delta_flip(card: JudgeCard) -> bytes:
    keys = list(card.invariance["excluded"].delta_flip)
    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    for j, (handling, colour) in enumerate(HANDLING_COLOURS.items()):
        report = card.invariance[handling]
        for i, key in enumerate(keys):
            _bar(
                ax,
                i + (j - 0.5) * 0.38,
                report.delta_flip[key],
                0.36,
                colour,
                handling if i == 0 else "",
            )
    ax.set_xticks(range(len(keys)), keys)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylabel("Δflip (percentage points)")
    ax.legend(title="parse failures", fontsize=7, title_fontsize=7)
    return _png(fig)


def threshold_shift(card: JudgeCard) -> bytes:
    fig, ax = plt.subplots(figsize=(5.6, 3.0))
    report = card.invariance["excluded"]
    rows = [
        ("judge: deny→approve share", report.flip_share.value),
        ("execution: expected share", report.expected_share),
        ("judge: sensitivity", report.sensitivity),
        ("judge: R_dir", report.r_dir.value),
    ]
    ax.barh([r[0] for r in rows], [100 * (r[1] or 0.0) for r in rows], color="#35618f")
    for i, (_, value) in enumerate(rows):
        ax.text(
            1,
            i,
            UNDEFINED if value is None else f"{100 * value:.1f}%",
            va="center",
            fontsize=8,
            color="white" if value else "black",
        )
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.set_xlabel("%")
    return _png(fig)


def pis_components(card: JudgeCard) -> bytes:
    c = card.pis_config
    fig, ax = plt.subplots(figsize=(5.6, 2.4))
    labels, widest, lowest, legend = [], 1.0, 0.0, False
    for i, handling in enumerate(HANDLING_COLOURS):
        r = card.invariance[handling]
        delta = excess(np.asarray(r.delta_flip["pooled"].value or 0.0), c.delta_flip_rule)
        r_dir = c.r_dir_without_flips if r.r_dir.value is None else r.r_dir.value
        u_rate = c.u_rate_without_flips if r.u_rate.value is None else r.u_rate.value
        parts = [
            ("P1: w1·Δflip", c.w1 * float(delta) * c.scale, "#35618f"),
            ("P2: w2·(1 − R_dir)", c.w2 * (1 - r_dir) * c.scale, "#d08c2b"),
            ("P3: w3·U_rate", c.w3 * u_rate * c.scale, "#8f3553"),
        ]
        if r.pis.value is None:  # nothing counted: no bar rather than one made of fallbacks
            ax.text(0.02, i, f"PIS {UNDEFINED}: no parsed answers", va="center", fontsize=8)
            labels.append(f"{handling}\nPIS —")
            continue
        # penalties stack rightwards from 0; a negative one (a negative Δflip under the seed
        # rule) is drawn leftwards from 0, hatched, so it never hides another part
        right = below = 0.0
        for name, width, colour in parts:
            start = right if width >= 0 else below
            ax.barh([i], [width], left=start, color=colour, label=None if legend else name,
                    hatch="//" if width < 0 else None)  # fmt: skip
            right, below = (right + width, below) if width >= 0 else (right, below + width)
        widest, lowest, legend = max(widest, right), min(lowest, below), True
        labels.append(f"{handling}\nPIS {r.pis.value:.2f}")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylim(-0.6, len(labels) - 0.4)  # fixed, so a missing bar does not squash the other
    ax.axvline(1.0, color="black", lw=0.8, ls="--")
    ax.axvline(0.0, color="grey", lw=0.6)
    ax.set_xlim(lowest * 1.05, widest * 1.05)
    ax.set_xlabel(
        f"penalty × S   (PIS = max(0, 1 − total), Δflip rule {c.delta_flip_rule}; "
        "dashed: PIS reaches 0)",
        fontsize=8,
    )
    if legend:
        ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    return _png(fig)


def figures(card: JudgeCard) -> dict[str, bytes]:
    return {
        "delta_flip": delta_flip(card),
        "threshold_shift": threshold_shift(card),
        "pis_components": pis_components(card),
    }
