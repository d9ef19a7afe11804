"""The certification plane on the real ``benchmark=small``: stored states executed through the
strata's trusted adjudicators reproduce the gold receipts, a tampered gold is refused, and the
two-plane audit runs end to end through analyze and the tables, baselines included."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.gold import Gold, load_gold, split_ids
from reasonbench.analysis.record import MetricsReport
from reasonbench.analysis.trusted import TrustedPlane, TwoPlaneSettings, two_plane_curves
from reasonbench.analysis.two_plane import ACCEPT_ALL, CERTIFY_ALL, GRID, TwoPlaneError
from reasonbench.core.certify import certify_exhaustive
from reasonbench.core.receipt import Receipt
from reasonbench.paper_figures import paper_figures
from reasonbench.predictions import load_predictions
from reasonbench.reports.build import write_reports
from tests.analysis import synth
from tests.conftest import baseline_predictions

MINE, ADDED = (
    "my-judge",
    "my-mapped-judge",
)  # a user's model without a role, and one added to the map
ROLES = {
    "direct_verdict": {"method": "qwen3_1.7b-direct_verdict", "target": "direct_verdict"},
    "cube": {"method": "qwen3_1.7b-cube", "target": "cube"},
    "majority": {"method": "majority", "target": "direct_receipt"},
    "tfidf": {"method": "tfidf", "target": "direct_receipt"},
    "my_role": {"method": ADDED, "target": "cube"},
}
SPLITS = ("calibration", "test_locked")


@pytest.fixture(scope="module")
def gold(small_bench: Path) -> dict[str, Gold]:
    return load_gold(small_bench, SPLITS)


@pytest.fixture(scope="module")
def preds(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = baseline_predictions(small_bench, tmp_path_factory.mktemp("two-plane-preds"), 2000)
    every = load_gold(small_bench)
    for method, target in ((MINE, "direct_receipt"), (ADDED, "cube")):
        records = synth.records(every, method, target, [0, 1], synth.constant(0.7), SPLITS)
        synth.write(out / f"{method}.jsonl", records)
    return out


def test_executed_receipt_is_the_gold_receipt(small_bench: Path, gold: dict[str, Gold]) -> None:
    plane = TrustedPlane(small_bench, gold)
    locked = sorted(i for i, g in gold.items() if g.split == "test_locked")
    for example_id in locked:
        done = plane.certify(example_id)
        oracle, sources = plane.oracle(example_id)
        exhaustive = certify_exhaustive(oracle, sources).receipt
        g = gold[example_id]
        assert exhaustive.sets == g.receipt.sets and exhaustive.new == g.receipt.new
        assert done.exhaustive == 1 << len(sources) and 2 <= done.executions <= done.exhaustive
        if g.receipt.stable:
            assert done.executions == 2  # the endpoints agree: no interior query
    assert plane.certify(locked[0]) is plane.certify(locked[0])  # each case executed once


def test_a_gold_receipt_execution_contradicts_is_an_error(
    small_bench: Path, gold: dict[str, Gold]
) -> None:
    changed = next(g for g in sorted(gold.values(), key=lambda g: g.example_id)
                   if not g.receipt.stable and g.split == "test_locked")  # fmt: skip
    r = changed.receipt
    wrong = Receipt(r.sources, r.old, r.new, (7,) if r.sets != (7,) else (1,))
    plane = TrustedPlane(small_bench, {**gold, changed.example_id: replace(changed, receipt=wrong)})
    with pytest.raises(TwoPlaneError, match=f"{changed.example_id}: trusted execution gives"):
        plane.certify(changed.example_id)
    with pytest.raises(TwoPlaneError, match="not an example of the benchmark"):
        plane.certify("no-such-id")
    with pytest.raises(TwoPlaneError, match="calibration split fits the maps"):
        TwoPlaneSettings(splits=("calibration",))
    with pytest.raises(ValueError, match="unknown calibration map 'isotonik'"):
        TwoPlaneSettings(scale="isotonik")


def test_curves_are_deterministic_and_cover_the_grid(
    small_bench: Path, gold: dict[str, Gold], preds: Path
) -> None:
    every = load_predictions(preds, split_ids(load_gold(small_bench)))
    records = [r for r in every if r.method == "tfidf" and r.split in SPLITS]
    first = two_plane_curves(records, gold, TrustedPlane(small_bench, gold).certify)
    again = two_plane_curves(records, gold, TrustedPlane(small_bench, gold).certify)
    assert json.dumps(repr(first)) == json.dumps(repr(again))
    (points,) = first.values()
    assert [p.route for p in points] == [r.label for r in GRID]
    ends = {p.route: p for p in points}
    assert ends[ACCEPT_ALL].executions == 0 and ends[CERTIFY_ALL].accepted == 0
    locked = [g for g in gold.values() if g.split == "test_locked"]
    assert ends[CERTIFY_ALL].gold_changes == sum(not g.receipt.stable for g in locked)


def test_table_and_figure_on_small_bench(small_bench: Path, preds: Path, tmp_path: Path) -> None:
    metrics = analyze(small_bench, preds, replicates=20, role_map=ROLES,
                      two_plane=TwoPlaneSettings())  # fmt: skip
    report = MetricsReport.from_json(json.loads(json.dumps(metrics)))
    assert report.to_json() == metrics  # the audit round-trips through metrics.json
    manifest = json.loads((small_bench / "MANIFEST.json").read_text())
    written = write_reports(
        metrics, manifest["stats"], paper_figures(), ROLES, tmp_path / "r",
        strata=manifest["config"]["strata"],
    )  # fmt: skip
    assert "two_plane" in written["tables"] and "two_plane" not in written["no_data"]
    assert (tmp_path / "r" / "figures" / "two_plane.png").stat().st_size > 0
    lines = (tmp_path / "r" / "tables" / "two_plane.csv").read_text().splitlines()
    rows = [line.split(",") for line in lines[1:]]
    by_method: dict[str, list[list[str]]] = {}
    for row in rows:
        by_method.setdefault(row[0], []).append(row)
    # every role that proposes receipts, a role added to the map, and a method without a role
    assert list(by_method) == ["qwen3_1.7b-cube", "majority", "tfidf", ADDED, MINE]
    assert by_method["qwen3_1.7b-cube"] == [["qwen3_1.7b-cube", "cube", "not run", *[""] * 10]]
    for method in ("majority", "tfidf", ADDED, MINE):
        assert [r[2] for r in by_method[method]] == [r.label for r in GRID]
    assert by_method[MINE][0][3] == "2"  # seeds
    for name in ("md", "tex"):
        assert (tmp_path / "r" / "tables" / f"two_plane.{name}").is_file()


def test_a_bad_two_plane_setting_is_one_line_at_the_cli(
    small_bench: Path, preds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reasonbench.cli.main import main

    argv = ["analyze", f"data_dir={small_bench}", f"predictions_dir={preds}",
            f"out={tmp_path / 'm.json'}", "progress=false", "two_plane_splits=[calibration]"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("reasonbench analyze: error: two-plane splits")
    assert not (tmp_path / "m.json").exists()
