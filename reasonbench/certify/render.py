"""The summary report as Markdown and as one self-contained HTML page (same content)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from reasonbench.certify.summary import CertifySummary
from reasonbench.reports.render import Cell, Table, fmt

__all__ = ["to_html", "to_markdown"]

Block = tuple[str, str] | Table  # ("h1" | "h2" | "p", text) or a table

STYLE = (
    "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:60rem;margin:2rem auto;"
    "padding:0 1rem;color:#1d2733;line-height:1.45}h2{color:#35618f;border-bottom:1px solid "
    "#d6dde6}table{border-collapse:collapse;margin:1rem 0;font-size:.92rem}caption{text-align:"
    "left;font-weight:bold}th,td{border:1px solid #d6dde6;padding:.25rem .6rem;text-align:left;"
    "vertical-align:top}th{background:#eef2f7}td{word-break:break-word}"
)


def _pct(value: object) -> str:
    return "—" if not isinstance(value, float) else f"{100 * value:.1f}%"


def _assumed(summary: CertifySummary) -> str:
    """What the receipts' exactness rests on, and what checked it (execution=monotone)."""
    parts = [f"{n} under the assumption '{a}'" for a, n in summary.under_assumption.items()]
    text = ""
    if parts:
        text += f" Receipts exact only if the declared assumption holds: {', '.join(parts)}."
    check = summary.monotone_check
    if check is not None:
        caught = check["violations_found_by_reasking"]
        found = f"they contradicted it in {caught} case(s)" if caught else "none contradicted it"
        text += (
            " The certifier checks every answer against the assumption and re-asked "
            f"{check['cells_reasked']} of the cells it had inferred (verify_fraction "
            f"{summary.config['verify_fraction']:g}): {found}; cells never asked cannot "
            "contradict it."
        )
        if check["violations"]:
            text += (
                " A contradiction means the adjudicator is not monotone on these cases: the "
                "receipts under the assumption may be wrong (execution=adaptive needs none)."
            )
    return text


def blocks(summary: CertifySummary) -> list[Block]:
    c, q, cfg = summary.counts, summary.queries, summary.config
    certified = c["changed"] + c["ambiguous"] + c["stable"]
    out: list[Block] = [
        ("h1", "Receipts for a version change"),
        (
            "p",
            f"{summary.input['cases']} cases from {summary.input['name']} (sha256 "
            f"{str(summary.input['sha256'])[:12]}…), sources {', '.join(summary.input['sources'])}; "
            f"adjudicator {cfg['adjudicator_id']}, execution {cfg['execution']}, "
            f"{cfg['repeats']} run(s) per hybrid, budget {cfg['budget'] or 'none'}.",
        ),
        ("h2", "Outcome"),
        Table(
            "outcome",
            "Cases by status",
            ("status", "cases", "meaning"),
            [
                ("changed", c["changed"], "verdict changed, one minimal sufficient set"),
                ("ambiguous", c["ambiguous"], "verdict changed, several minimal sufficient sets"),
                ("stable", c["stable"], "old and new verdict agree: no receipt"),
                ("uncertified", c["uncertified"], "no receipt could be certified (see below)"),
            ],
            note=f"{certified} of {summary.input['cases']} cases certified." + _assumed(summary),
        ),
        ("h2", "Receipts by source set"),
        Table("families", "Receipt families", ("receipt", "cases"), list(summary.families)),
        Table(
            "sets", "Minimal sufficient sets", ("set", "receipts containing it"), list(summary.sets)
        ),
        ("h2", "Queries"),
        Table(
            "queries",
            "Interior hybrids consulted against 2^k − 2 per case",
            ("queries spent", "2^k − 2 summed", "share", "mean per case"),
            [(q["spent"], q["interior_cells"], _pct(q["share"]), fmt(q["mean_per_case"], 1))],
        ),
        ("h2", "Not certified"),
    ]
    return out + _problems(summary)


def _problems(summary: CertifySummary) -> list[Block]:
    """What could not be certified, every failed execution, unstable cells, violations."""
    out: list[Block] = []
    if summary.uncertified:
        why: list[Sequence[Cell]] = [
            (u["id"], u["reason"], u["message"]) for u in summary.uncertified
        ]
        out.append(Table("uncertified", "Uncertified cases", ("case", "reason", "why"), why))
    else:
        out.append(("p", "Every case was certified."))
    if summary.failures:
        kinds = ", ".join(f"{k}: {n}" for k, n in summary.failures_by_kind.items())
        out.append(("p", f"Failed executions by kind: {kinds}."))
        failed: list[Sequence[Cell]] = [
            (f["id"], f["cell"] or "∅", f["run"], f["kind"], f["detail"]) for f in summary.failures
        ]
        columns = ("case", "hybrid", "run", "kind", "detail")
        out.append(Table("failures", "Failed executions", columns, failed))
    if summary.unstable:
        unstable: list[Sequence[Cell]] = [
            (
                u["id"],
                "; ".join(f"{x['cell'] or '∅'}: {'/'.join(x['verdicts'])}" for x in u["cells"]),
            )
            for u in summary.unstable
        ]
        out.append(
            Table("unstable", "Cells whose runs disagree", ("case", "cells: runs"), unstable)
        )
    if summary.violations:
        broken: list[Sequence[Cell]] = [
            (
                v["id"],
                f"{v['lower'] or '∅'} = {v['lower_verdict']}",
                f"{v['upper'] or '∅'} = {v['upper_verdict']}",
                "re-asking" if v["found_by"] == "reasking" else "search",
            )
            for v in summary.violations
        ]
        out.append(
            (
                "p",
                "The monotone assumption was contradicted: these receipts come from the exact fallback.",
            )
        )
        out.append(
            Table(
                "violations",
                "Assumption violations",
                ("case", "subset", "superset", "found by"),
                broken,
            )
        )
    return out


def to_markdown(summary: CertifySummary) -> str:
    parts = []
    for block in blocks(summary):
        if isinstance(block, Table):
            parts.append(block.markdown())
        else:
            kind, text = block
            parts.append({"h1": "# ", "h2": "## ", "p": ""}[kind] + text + "\n")
    return "\n".join(parts)


def to_html(summary: CertifySummary) -> str:
    body = []
    for block in blocks(summary):
        if isinstance(block, Table):
            body.append(block.html())
        else:
            kind, text = block
            body.append(f"<{kind}>{html.escape(text)}</{kind}>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>reasonbench certify</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
