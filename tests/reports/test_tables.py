"""Tables and figures: every table in three formats with consistent Markdown cells, every
analyzed method in every table that applies to it, roles not run marked, figures without data
saying so."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from reasonbench.analysis.analyze import TwoPlaneSettings, analyze
from reasonbench.analysis.record import FORMAT, Inference, MetricsReport
from reasonbench.paper_figures import paper_figures
from reasonbench.reports import figures
from reasonbench.reports.build import write_reports
from reasonbench.reports.compare import Tolerance, compare
from reasonbench.reports.curves import CurveError, read_curve
from reasonbench.reports.render import DECIMALS, Table
from reasonbench.reports.tables import TABLES
from tests.analysis import synth
from tests.conftest import toy_strata

ROLES = {
    "direct_receipt": {"method": "qwen3_1.7b-direct_receipt", "target": "direct_receipt"},
    "rationale_receipt": {"method": "qwen3_1.7b-rationale_receipt", "target": "rationale_receipt"},
    "cube": {"method": "qwen3_1.7b-cube", "target": "cube"},
    "cardinality_direct": {"method": "qwen3_1.7b-direct_receipt-cardinality"},
    "majority": {"method": "majority"},
    "tfidf": {"method": "tfidf"},
}
MINE = "tiny-cube"  # a user's own model: no role anywhere
BROKEN = "broken-judge"  # every output fails to parse


@pytest.fixture(scope="module")
def built(
    toy_benchmark: Path, toy_predictions: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    preds = tmp_path_factory.mktemp("preds")
    for name in ("majority", "tfidf"):
        (preds / f"{name}.parquet").write_bytes((toy_predictions / f"{name}.parquet").read_bytes())
    gold = synth.gold_of(toy_benchmark)
    every = sorted({g.split for g in gold.values()} - {"train", "cardinality_train"})
    synth.write(
        preds / "dr.jsonl",
        synth.records(
            gold,
            "qwen3_1.7b-direct_receipt",
            "direct_receipt",
            range(2),
            synth.constant(0.8),
            every,
        ),
    )
    synth.write(
        preds / "cube.jsonl",
        synth.records(gold, "qwen3_1.7b-cube", "cube", range(2), synth.constant(0.9), every),
    )
    synth.write(
        preds / "mine.jsonl",
        synth.records(gold, MINE, "cube", range(2), synth.constant(0.6), every, parse_failures=0.2),
    )
    synth.write(
        preds / "broken.jsonl",
        synth.records(
            gold, BROKEN, "direct_receipt", [0], synth.constant(0.5), every, parse_failures=1.0
        ),
    )
    comparisons = [
        {"name": "cube_vs_direct_receipt", "a": "qwen3_1.7b-cube", "b": "qwen3_1.7b-direct_receipt", "family": "primary", "by": ["stratum"]},
        {"name": "tfidf_vs_majority", "a": "tfidf", "b": "majority", "family": "surface"},
        {"name": "cpu_mine_vs_tfidf", "a": MINE, "b": "tfidf", "family": "cpu"},
        {"name": "cardinality_cube_vs_direct", "a": "x", "b": "y", "family": "cardinality", "split": "cardinality_test"},
    ]  # fmt: skip
    metrics = analyze(
        toy_benchmark, preds, comparisons, replicates=50, role_map=ROLES,
        two_plane=TwoPlaneSettings(), strata=toy_strata(),
    )  # fmt: skip
    out = tmp_path_factory.mktemp("report")
    (out / "metrics.json").write_text(json.dumps(metrics))
    manifest = json.loads((toy_benchmark / "MANIFEST.json").read_text())
    stats, strata = manifest["stats"], manifest["config"]["strata"]
    run = curve_run(out / "run")
    written = write_reports(
        metrics, stats, paper_figures(), ROLES, out / "r", curves=[read_curve(run)], strata=strata
    )
    assert list(written["tables"]) == list(TABLES) and written["no_data"] == []
    return out


def curve_run(run: Path) -> Path:
    """A training run directory as ``reasonbench train eval.every=2`` leaves it."""
    run.mkdir()
    lines = [
        {"step": 1, "loss": 5.0, "lr": 0.001, "tokens": 300},
        {"step": 2, "tokens": 600, "eval": {"split": "dev", "examples": 8, "revised_verdict": 0.5,
                                            "exact_receipt": 0.25, "endpoints": 0.125,
                                            "parse_failures": 0.0}},
        {"step": 4, "tokens": 1200, "eval": {"split": "dev", "examples": 8, "revised_verdict": 0.75,
                                             "exact_receipt": 0.5, "endpoints": 0.375,
                                             "parse_failures": 0.0}},
    ]  # fmt: skip
    (run / "train_log.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (run / "RUN.json").write_text(json.dumps({"method": MINE}))
    return run


def table(built: Path, name: str) -> str:
    return (built / "r" / "tables" / f"{name}.md").read_text()


def rows_of(text: str, method: str) -> list[list[str]]:
    return [cells(line) for line in text.splitlines() if line.startswith(f"| {method} |")]


def cells(line: str) -> list[str]:
    """The cells of one Markdown table line (an escaped ``\\|`` is part of a cell)."""
    inner = line.strip()[1:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner)]


def test_every_table_in_three_formats(built: Path) -> None:
    for name in TABLES:
        for suffix in ("md", "csv", "tex"):
            assert (built / "r" / "tables" / f"{name}.{suffix}").stat().st_size > 0
    surface = table(built, "surface_diagnostics")
    assert "53.80" in surface and "90.00" in surface  # the paper's values beside ours
    for name in figures.FIGURES:
        assert (built / "r" / "figures" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"


def test_every_markdown_table_has_consistent_cell_counts(built: Path) -> None:
    files = [*(built / "r" / "tables").glob("*.md"), built / "r" / "README.md"]
    checked = 0
    for path in files:
        block: list[str] = []
        for line in [*path.read_text().splitlines(), ""]:
            if line.startswith("|"):
                block.append(line)
                continue
            if block:
                width = len(cells(block[0]))
                assert re.fullmatch(r"\|(---\|)+", block[1]) and block[1].count("---") == width, (
                    path
                )
                for row in block[2:]:
                    assert len(cells(row)) == width, f"{path.name}: {row}"
                checked += 1
                block = []
    assert checked >= 2 * len(TABLES)  # each table in its file and in the README


def test_a_users_own_method_is_in_every_table_that_applies(built: Path) -> None:
    applies = ["primary_comparison", "all_metrics", "verdict_receipt_separation", "paired_consistency",
               "cell_agreement", "selective_debt", "calibration", "cardinality", "cardinality_breakdown", "shift"]  # fmt: skip
    for name in applies:
        assert rows_of(table(built, name), MINE), f"{MINE} missing from {name}"
    assert MINE in table(built, "structural_subgroups").splitlines()[2]  # a column of its own
    for name in ("surface_diagnostics", "replication", "augmentation"):  # paper roles only
        assert not rows_of(table(built, name), MINE)
    (row,) = rows_of(table(built, "primary_comparison"), MINE)
    assert row[1] == "—" and row[2] == "cube" and row[3] == "2"


def test_cpu_comparisons_join_the_primary_table_as_cpu_models(built: Path) -> None:
    """The primary question asked of CPU-trained models (family ``cpu``) shows beside the
    paper's, and the note says they are CPU models, not the paper's."""
    text = table(built, "primary_comparison")
    (row,) = rows_of(text, f"cpu_mine_vs_tfidf: {MINE} − tfidf")
    assert row[5] not in ("", "not run")  # the receipt difference
    assert "'cpu' compare CPU models trained here from scratch" in text
    assert "not the paper's Qwen3 runs" in text


def test_roles_not_run_are_marked(built: Path) -> None:
    (row,) = rows_of(table(built, "primary_comparison"), "qwen3_1.7b-rationale_receipt")
    assert row[3] == "not run"
    (row,) = rows_of(table(built, "cardinality"), "qwen3_1.7b-direct_receipt-cardinality")
    assert "not run" in row
    card = [
        cells(line)
        for line in table(built, "cardinality").splitlines()
        if line.startswith("| cardinality_cube_vs_direct")
    ]
    assert card and "not run" in card[0]


def test_all_parse_failures_score_zero_everywhere(built: Path) -> None:
    metrics = json.loads((built / "metrics.json").read_text())
    entry = metrics["methods"][BROKEN]
    assert entry["info"]["verdict_only"] is False  # from the target, not from what parsed
    for split, summary in entry["seeds"]["0"]["splits"].items():
        for name, ratio in summary["metrics"].items():
            if name == "parse_failure_rate":
                assert ratio["value"] == 1.0
            elif ratio["denominator"]:
                assert ratio["value"] == 0.0, (split, name)
    locked = metrics["inference"]["splits"]["test_locked"]["methods"][BROKEN]["outcomes"]
    assert all(ci == {"estimate": 0.0, "low": 0.0, "high": 0.0} for ci in locked.values())
    (row,) = rows_of(table(built, "primary_comparison"), BROKEN)
    assert row[4:9] == ["0.00", "0.00", "0.00", "0.00", "100.00"]
    pooled = entry["seeds"]["0"]["consistency"]["pooled"]
    assert all(c["consistency"] == 0.0 for c in pooled.values())  # checkable pairs, all violated


def test_figures_without_data_say_no_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = MetricsReport(FORMAT, "0" * 64, None, {}, {}, Inference(10, 0, {}, {}, {}))
    seen: list[Any] = []

    def keep(fig: Any, out: Any, rel: str) -> None:
        seen.append(fig)
        out.write_bytes(rel, b"\x89PNG")

    monkeypatch.setattr(figures, "_save", keep)
    written = write_reports(empty, {}, paper_figures(), {}, tmp_path, strata=())
    assert set(written["no_data"]) == set(figures.FIGURES) == set(written["figures"])
    for fig in seen:
        texts = [t.get_text() for ax in fig.axes for t in ax.texts]
        assert any(t.startswith("no data") for t in texts)


def test_markdown_escapes_cells_and_refuses_ragged_rows() -> None:
    t = Table("t", "T", ["a|b", "c"], [["x | y", "line 1\nline 2"], [True, None]])
    lines = t.markdown().splitlines()
    assert lines[2] == "| a\\|b | c |"
    assert cells(lines[4]) == ["x \\| y", "line 1<br>line 2"]
    assert cells(lines[5]) == ["yes", "—"]
    with pytest.raises(ValueError, match="row 1 has 1 cells, the header 2"):
        Table("t", "T", ["a", "b"], [["only one"]])


def test_latex_escapes_and_csv_blanks() -> None:
    table_ = Table("t", "A_b & 50%", ["x_y", "v"], [["a&b", None], ["c", 1.5]])
    assert r"A\_b \& 50\%" in table_.latex() and r"a\&b & --" in table_.latex()
    assert table_.csv().splitlines() == ["x_y,v", "a&b,", "c,1.50"]


def test_one_rounding_rule_in_every_format() -> None:
    # a float shows DECIMALS decimals in Markdown, CSV and LaTeX alike; a count stays a count
    table_ = Table("t", "T", ["n", "v", "w"], [[1312, 44.228799999999, 0.004999]])
    assert DECIMALS == 2
    assert table_.csv().splitlines()[1] == "1312,44.23,0.00"
    assert "| 1312 | 44.23 | 0.00 |" in table_.markdown()
    assert "1312 & 44.23 & 0.00 \\\\" in table_.latex()


def test_every_csv_float_has_the_stated_decimals(built: Path) -> None:
    floats = 0
    for path in sorted((built / "r" / "tables").glob("*.csv")):
        for row in list(csv.reader(path.open(newline="")))[1:]:
            for cell in row:
                if re.fullmatch(r"-?\d+\.\d+", cell):
                    floats += 1
                    assert len(cell.split(".")[1]) == DECIMALS, (path.name, cell)
                else:
                    assert not re.fullmatch(r"-?[\d.]+e-?\d+", cell), (path.name, cell)
    assert floats > 100


def test_last_digit_noise_moves_no_table_and_no_figure(
    built: Path, toy_benchmark: Path, tmp_path: Path
) -> None:
    """What another CPU does to fitted floats (1e-8 to 1e-6 relative) changes metrics.json, but
    not one byte of the tables, the README or the figures: they show and plot rounded values.
    Exact ratios are left alone: 29/32 = 90.625 % lies on a rounding half, and noise would tip
    it, but a ratio of counts is computed exactly, the same on every CPU."""
    moved = 0

    def noise(tree: Any) -> Any:
        nonlocal moved
        if isinstance(tree, float) and abs(tree * 20000 - round(tree * 20000)) > 1e-6:
            moved += 1
            return tree * (1 + 3e-7)
        if isinstance(tree, dict):
            return {k: noise(v) for k, v in tree.items()}
        if isinstance(tree, list):
            return [noise(v) for v in tree]
        return tree

    noisy = noise(json.loads((built / "metrics.json").read_text()))
    assert moved > 500
    manifest = json.loads((toy_benchmark / "MANIFEST.json").read_text())
    stats, strata = manifest["stats"], manifest["config"]["strata"]
    curves = [read_curve(built / "run")]  # the same runs: their points are exact ratios
    write_reports(
        noisy, stats, paper_figures(), ROLES, tmp_path / "r", curves=curves, strata=strata
    )
    result = compare(built / "r", tmp_path / "r", Tolerance(0.0, 0.0))
    assert result.agree and all(f.identical for f in result.files), "\n".join(result.lines())
    assert {f.rel.split("/")[0] for f in result.files} >= {"tables", "figures", "README.md"}


def test_tables_refuse_a_metrics_file_of_another_layout(
    toy_benchmark: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reasonbench.cli.main import main

    (tmp_path / "m.json").write_text('{"methods": {}, "inference": {}}')
    argv = [
        "tables",
        f"data_dir={toy_benchmark}",
        f"metrics={tmp_path / 'm.json'}",
        f"out_dir={tmp_path / 'o'}",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a metrics file of this reasonbench: format None" in err[0]
    assert "internal error" not in err[0] and not (tmp_path / "o").exists()


def test_learning_curve_rows_are_the_logged_points(built: Path) -> None:
    """One row per logged point, accuracies in percent; loss lines are not points."""
    rows = rows_of(table(built, "learning_curve"), MINE)
    assert rows == [
        [MINE, "2", "600", "25.00", "12.50", "50.00"],
        [MINE, "4", "1200", "50.00", "37.50", "75.00"],
    ]
    assert (built / "r" / "figures" / "learning_curve.png").stat().st_size > 0


def test_a_run_without_curve_points_is_named(tmp_path: Path) -> None:
    with pytest.raises(CurveError, match="train_log.jsonl not found"):
        read_curve(tmp_path)
    (tmp_path / "train_log.jsonl").write_text(json.dumps({"step": 1, "loss": 1.0}) + "\n")
    with pytest.raises(CurveError, match=r"no learning-curve points \(train with eval.every > 0\)"):
        read_curve(tmp_path)
