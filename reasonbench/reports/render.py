r"""Render one table (header + rows of cells) as Markdown, CSV and LaTeX, written atomically, and
as an HTML fragment for the self-contained pages (the Judge Card, the certify summary).

Markdown cells are escaped (``|`` as ``\|``, a line break as ``<br>``) so every row has exactly
as many cells as the header; a row of another length is refused when the table is built.

One rounding rule for everything a reader sees (:data:`DECIMALS`): a float cell is written with
two decimals in all three formats, CSV included, so the tables are byte-identical on machines
whose fitted floats differ in their last digits (docs/reproducibility.md); the full-precision numbers
are in ``metrics.json``. Figures plot the metrics rounded by the same rule (:func:`rounded`).
"""

from __future__ import annotations

import csv
import html
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.io import OutputDir

Cell = str | int | float | None


UNDEFINED = "—"

# The decimals of every float a table shows (Markdown, CSV, LaTeX). Rates are shown in percentage
# points, so a rate is shown to 0.01 pp (1e-4 of the rate): the paper's own precision, and two
# orders of magnitude coarser than the cross-CPU differences seen (<= 1e-6 of a rate).
DECIMALS = 2
# The same precision for a rate before it is scaled to percentage points (figures plot rates).
RATE_DECIMALS = DECIMALS + 2


def fmt(value: object, digits: int | None = DECIMALS) -> str:
    """A scalar as a reader expects it: ``—`` for null, yes/no, a float to ``digits`` decimals
    (``None``: its shortest form, ``0.3``), anything else as its text."""
    if value is None:
        return UNDEFINED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}" if digits is None else f"{value:.{digits}f}"
    return str(value)


def rounded(tree: Any, decimals: int = RATE_DECIMALS) -> Any:
    """A JSON tree with every float rounded to ``decimals`` places (figures plot the metrics at
    the precision the tables show them, so their bytes are as stable as the tables')."""
    if isinstance(tree, float):
        return round(tree, decimals) if math.isfinite(tree) else tree
    if isinstance(tree, dict):
        return {key: rounded(value, decimals) for key, value in tree.items()}
    if isinstance(tree, list):
        return [rounded(value, decimals) for value in tree]
    return tree


def md_cell(text: str) -> str:
    """One Markdown table cell: pipes escaped, line breaks as ``<br>``, no outer whitespace."""
    text = text.replace("\\", "\\\\").replace("|", "\\|")
    return "<br>".join(part.strip() for part in text.splitlines()) if text else text


def pct(value: float | None) -> float | None:
    """A rate in [0, 1] as percentage points (None stays None)."""
    return None if value is None else 100.0 * value


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    header: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    note: str = ""

    def __post_init__(self) -> None:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(
                    f"table {self.name}: row {i + 1} has {len(row)} cells, the header {len(self.header)}"
                )

    def markdown(self) -> str:
        lines = [
            f"### {self.title}",
            "",
            "| " + " | ".join(md_cell(h) for h in self.header) + " |",
            "|" + "---|" * len(self.header),
        ]
        lines += ["| " + " | ".join(md_cell(fmt(c)) for c in row) + " |" for row in self.rows]
        if self.note:
            lines += ["", self.note]
        return "\n".join(lines) + "\n"

    def csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(
            ["" if c is None else fmt(c) if isinstance(c, bool | float) else c for c in row]
            for row in self.rows
        )
        return buffer.getvalue()

    def latex(self) -> str:
        def esc(text: str) -> str:
            for a, b in (
                ("\\", r"\textbackslash{}"),
                ("&", r"\&"),
                ("%", r"\%"),
                ("_", r"\_"),
                ("#", r"\#"),
                ("—", "--"),
                ("−", "-"),
                ("≥", r"$\geq$"),
            ):
                text = text.replace(a, b)
            return text

        lines = [
            r"\begin{table}[t]",
            r"\centering",
            rf"\caption{{{esc(self.title)}}}",
            rf"\label{{tab:{self.name}}}",
            r"\begin{tabular}{" + "l" * len(self.header) + "}",
            r"\toprule",
            " & ".join(esc(h) for h in self.header) + r" \\",
            r"\midrule",
        ]
        lines += [" & ".join(esc(fmt(c)) for c in row) + r" \\" for row in self.rows]
        lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        """``<table id=name>`` with the title as caption, then the note as a paragraph, if any;
        every cell escaped, floats as in every other format."""
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.header)
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(fmt(c))}</td>" for c in row) + "</tr>"
            for row in self.rows
        )
        caption = html.escape(self.title)
        note = f"<p>{html.escape(self.note)}</p>" if self.note else ""
        return (
            f'<table id="{self.name}"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>{note}"
        )

    def write(self, out: OutputDir, subdir: str = "tables") -> None:
        """``<subdir>/<name>.{md,csv,tex}``, each atomically, through ``out``'s ownership check."""
        for suffix, text in (("md", self.markdown()), ("csv", self.csv()), ("tex", self.latex())):
            out.write_text(f"{subdir}/{self.name}.{suffix}", text)
