"""Every table renders in three formats, methods not run are marked, figures are written."""

from __future__ import annotations

import json
from pathlib import Path

from reasonbench.analysis.analyze import analyze
from reasonbench.paper_figures import paper_figures
from reasonbench.reports.build import write_reports
from reasonbench.reports.render import Table

METHODS = {
    "direct_receipt": "qwen3_1.7b-direct_receipt",
    "cube": "qwen3_1.7b-cube",
    "cardinality": "qwen3_1.7b-direct_receipt-cardinality",
    "permaug_direct": "qwen3_1.7b-direct_receipt-permaug",
    "permaug_cube": "qwen3_1.7b-cube-permaug",
}


def test_reports_from_toy_metrics(
    toy_benchmark: Path, toy_predictions: Path, tmp_path: Path
) -> None:
    metrics = analyze(
        toy_benchmark,
        toy_predictions,
        [{"name": "tfidf_vs_majority", "a": "tfidf", "b": "majority"}],
        replicates=200,
    )
    stats = json.loads((toy_benchmark / "MANIFEST.json").read_text())["stats"]
    written = write_reports(metrics, stats, paper_figures(), METHODS, tmp_path)
    assert len(written["tables"]) == 9
    for name in written["tables"]:
        for suffix in ("md", "csv", "tex"):
            assert (tmp_path / "tables" / f"{name}.{suffix}").stat().st_size > 0
    surface = (tmp_path / "tables" / "surface_diagnostics.md").read_text()
    assert "53.80" in surface and "90.00" in surface  # the paper's values beside ours
    primary = (tmp_path / "tables" / "primary_comparison.md").read_text()
    assert "not run" in primary
    assert {"forest", "consistency", "coverage_debt"} <= set(written["figures"])
    assert (tmp_path / "figures" / "forest.png").read_bytes()[:4] == b"\x89PNG"


def test_latex_escapes_and_csv_blanks() -> None:
    table = Table("t", "A_b & 50%", ["x_y", "v"], [["a&b", None], ["c", 1.5]])
    assert r"A\_b \& 50\%" in table.latex() and r"a\&b & --" in table.latex()
    assert table.csv().splitlines() == ["x_y,v", "a&b,", "c,1.5"]
