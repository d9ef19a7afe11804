"""Threshold-margin audit: no gold label of a thresholded stratum hinges on a float.

For every record whose adjudicator reports threshold margins (``margins(state)``: the agentic
stratum's oversight rules O1-O3, :mod:`reasonbench.are.robust`), every cube cell — all 2^k
hybrids of the stored old and new state — is re-executed and its margins read. Reported per
threshold (``gamma``: Gamma_A - gamma_min; ``rho``: rho_max - rho; ``rho_total``: the same with
the paper's denominator; ``override:<s>``: theta_s - Ov_s): the smallest |margin| over the cells
held to it, where it occurs, and the delta it had to keep. A problem is a cell that keeps less than delta from some
threshold, or whose two readings of rho disagree on whether O2 fires — except that a quarantine
control's cells are held to the project's reading only: its planted relations dilute the
paper's rho by design (docs/are.md), so a cell that fails only that reading is listed under
``quarantine_rho_total`` and does not fail the audit.

Chunks are summarised in the worker that re-executes their labels (the adjudicator's caches are
warm there) and merged in chunk order, so the report is the same for any worker count.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reasonbench.are.robust import Margin, certified
from reasonbench.audit import reexecute
from reasonbench.core.sources import cell_key, cell_order
from reasonbench.core.state import hybrid

__all__ = ["QUARANTINE", "MarginSummary", "chunk_margins", "margin_table", "merge"]

QUARANTINE = "quarantine"  # the control kind whose cells hold to the project's rho only


@dataclass
class MarginSummary:
    """Cells checked, the smallest margin per threshold (with where), and the problems."""

    records: int = 0
    cells: int = 0
    smallest: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    by_design: list[str] = field(default_factory=list)  # quarantine cells: the paper's rho only

    def note(self, margin: Margin, where: str) -> None:
        best = self.smallest.get(margin.name)
        size = abs(margin.signed)
        if best is None or size < best["margin"]:
            self.smallest[margin.name] = {
                "margin": size,
                "signed": margin.signed,
                "threshold": margin.threshold,
                "value": margin.value,
                "delta": margin.delta,
                "relative": size / margin.threshold if margin.threshold else math.inf,
                "where": where,
            }

    def to_json(self) -> dict[str, Any]:
        def finite(v: Any) -> Any:
            return v if not isinstance(v, float) or math.isfinite(v) else str(v)

        return {
            "records": self.records,
            "cells": self.cells,
            "violations": len(self.problems),
            "quarantine_rho_total": self.by_design,
            "smallest": {
                name: {k: finite(v) for k, v in entry.items()}
                for name, entry in sorted(self.smallest.items())
            },
        }


def _why(margins: Sequence[Margin]) -> str:
    short = [f"{m.name} {m.signed:+.3g} (delta {m.delta:.3g})" for m in margins if not m.kept]
    by_name = {m.name: m for m in margins}
    if by_name["rho"].fires != by_name["rho_total"].fires:
        short.append("the two readings of rho disagree on O2")
    return "; ".join(short)


def chunk_margins(records: Sequence[Mapping[str, Any]]) -> MarginSummary:
    """The margin summary of ``records`` (those whose adjudicator reports no margins are
    skipped); strata come from :func:`reexecute.install`."""
    out = MarginSummary()
    for record in records:
        adjudicator = reexecute.stratum(record["stratum"]).adjudicator(
            json.loads(record["context"])
        )
        margins_of = getattr(adjudicator, "margins", None)
        if margins_of is None:
            continue
        old, new = reexecute.states(record)
        out.records += 1
        for mask in cell_order(len(old.sources)):
            margins = tuple(margins_of(hybrid(old, new, mask)))
            where = f"{record['id']} cell {{{cell_key(mask, old.sources)}}}"
            out.cells += 1
            quarantined = record.get("control") == QUARANTINE
            for margin in margins:
                if not (quarantined and margin.name == "rho_total"):
                    out.note(margin, where)
            if certified(margins):
                continue
            if quarantined and certified(margins, both_readings=False):
                out.by_design.append(f"{where}: {_why(margins)}")
            else:
                out.problems.append(f"{where}: {_why(margins)}")
    return out


def merge(parts: Sequence[MarginSummary]) -> MarginSummary:
    """One summary of several, in order (the first of equal smallest margins is kept)."""
    out = MarginSummary()
    for part in parts:
        out.records += part.records
        out.cells += part.cells
        out.problems.extend(part.problems)
        out.by_design.extend(part.by_design)
        for name, entry in part.smallest.items():
            best = out.smallest.get(name)
            if best is None or entry["margin"] < best["margin"]:
                out.smallest[name] = entry
    return out


def margin_table(report: Mapping[str, Any]) -> list[str]:
    """Markdown lines for AUDIT.md: the smallest margin per threshold and where it occurs."""
    lines = [
        "",
        "## Threshold margins",
        "",
        f"{report['cells']:,} cube cells of {report['records']:,} records re-executed; "
        f"{report['violations']} keep less than their delta or read rho both ways; "
        f"{len(report['quarantine_rho_total'])} quarantine-control cells would read O2 "
        "differently with the paper's rho (by design, not a failure).",
        "",
        "| threshold | smallest margin | signed | threshold value | delta | relative | where |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, e in report["smallest"].items():
        lines.append(
            f"| {name} | {_num(e['margin'])} | {_num(e['signed'])} | {_num(e['threshold'])} "
            f"| {_num(e['delta'])} | {_num(e['relative'])} | {e['where']} |"
        )
    return lines


def _num(value: Any) -> str:
    return value if isinstance(value, str) else f"{value:.4g}"
