"""The docs/extending.md recipe "A new metric": one registered object, computed by analyze for
every split, subgroup and seed, pooled over seeds, and shown by reasonbench tables."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reasonbench.analysis import METRICS, Metric, rate
from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.scoring import Scored
from reasonbench.paper_figures import paper_figures
from reasonbench.reports.build import write_reports


def changed_verdict_right(r: Scored) -> bool:
    """Revised verdict right on a gold change whose old verdict was 'deny'."""
    return r.verdict_correct


@pytest.fixture
def toy_metric() -> Iterator[str]:
    name = "deny_change_verdict_accuracy"
    METRICS.register(
        name,
        Metric(
            name,
            "revised verdict right on gold changes away from deny",
            rate(
                changed_verdict_right,
                among=lambda r: r.gold.receipt.old == "deny" and not r.gold.receipt.stable,
            ),
        ),
    )
    yield name
    METRICS.unregister(name)


def test_a_registered_metric_flows_through_analyze_and_tables(
    toy_metric: str, toy_benchmark: Path, toy_predictions: Path, tmp_path: Path
) -> None:
    metrics = analyze(toy_benchmark, toy_predictions, replicates=20)
    locked = metrics["methods"]["tfidf"]["seeds"]["0"]["splits"]["test_locked"]["metrics"][
        toy_metric
    ]
    assert 0 <= locked["value"] <= 1 and locked["denominator"] > 0
    assert toy_metric in metrics["methods"]["tfidf"]["pooled"]["test_locked"]["metrics"]
    assert (
        toy_metric
        in metrics["methods"]["tfidf"]["seeds"]["0"]["subgroups"]["stratum"]["logical"]["metrics"]
    )
    assert metrics["metrics"][toy_metric]["description"].startswith("revised verdict right")
    manifest = json.loads((toy_benchmark / "MANIFEST.json").read_text())
    write_reports(
        metrics, manifest["stats"], paper_figures(), {}, tmp_path,
        strata=manifest["config"]["strata"],
    )  # fmt: skip
    table = (tmp_path / "tables" / "all_metrics.md").read_text()
    header = next(line for line in table.splitlines() if line.startswith("| method"))
    assert toy_metric in header
    row = next(line for line in table.splitlines() if line.startswith("| tfidf"))
    assert f"{100 * locked['value']:.2f}" in row
