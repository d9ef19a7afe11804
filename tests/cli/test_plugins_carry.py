"""Plug-ins carry through every command (docs/extending.md, "What a plug-in leaves in what a
command writes"): what a command writes records the plug-ins it loaded, and a later command that
reads it loads them too, or refuses in one line naming the one it cannot import.

One toy benchmark is built with the toy stratum and control-kind plug-ins (``echo``), scored by
the baselines and analyzed with the plug-ins named; every test after that runs its command
without ``plugins=``: with the toy package on the path (it is loaded from the record), or without
it (the refusal)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.controls import CONTROL_KINDS
from reasonbench.plugins import PluginError, carry_plugins, load_entry_points, loaded_plugins
from tests.cli.conftest import TOYS, toys_on_path

RECORDED = [
    {"module": "rb_toys.control", "distribution": None, "version": None},
    {"module": "rb_toys.stratum", "distribution": None, "version": None},
]


@dataclass(frozen=True)
class ToyRun:
    bench: Path
    predictions: Path
    metrics: Path


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory: pytest.TempPathFactory) -> ToyRun:
    """generate, baselines and analyze with ``plugins=[rb_toys.stratum,rb_toys.control]``; the
    toys are gone again when the tests start."""
    from tests.conftest import baseline_predictions

    root = tmp_path_factory.mktemp("carry")
    run = ToyRun(root / "rb", root / "preds", root / "metrics.json")
    plugins = "plugins=[rb_toys.stratum,rb_toys.control]"
    with toys_on_path():
        assert main([
            "generate", plugins, "benchmark=toy_small", "benchmark.controls.kinds=[inverse,echo]",
            f"out_dir={run.bench}", "workers=1", "progress=false", "cardinality=false",
        ]) == 0  # fmt: skip
        run.predictions.mkdir()
        baseline_predictions(run.bench, run.predictions, max_features=300)
        assert main([
            "analyze", plugins, f"data_dir={run.bench}", f"predictions_dir={run.predictions}",
            f"out={run.metrics}", "replicates=20", "two_plane_splits=[]",
        ]) == 0  # fmt: skip
    assert "echo" not in CONTROL_KINDS and "rb_toys" not in sys.modules
    return run


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def refusal(command: str, source: Path) -> str:
    """The one line for an input written with both toy plug-ins, the toys off the path."""
    return (
        f"reasonbench {command}: error: {source} was written with the plug-ins rb_toys.control, "
        "rb_toys.stratum, which cannot be loaded here (rb_toys.control cannot be imported: no "
        "module named 'rb_toys'; rb_toys.stratum cannot be imported: no module named 'rb_toys'); "
        "set plugins=[rb_toys.control,rb_toys.stratum] with their packages on PYTHONPATH (or "
        f"install them), in {source.name}"
    )


def test_generate_and_analyze_record_the_plugins(toy_run: ToyRun) -> None:
    manifest = json.loads((toy_run.bench / "MANIFEST.json").read_text())
    assert manifest["plugins"] == RECORDED
    assert json.loads(toy_run.metrics.read_text())["plugins"] == RECORDED


def test_a_command_without_plugins_loads_the_recorded_ones(
    toy_run: ToyRun, plugin_toys: None, tmp_path: Path
) -> None:
    audit = tmp_path / "audit"
    argv = ["audit", f"data_dir={toy_run.bench}", f"audit_dir={audit}", "workers=1",
            "progress=false"]  # fmt: skip
    assert main(argv) == 0
    assert "echo" in CONTROL_KINDS and loaded_plugins() == RECORDED
    out = tmp_path / "metrics.json"
    argv = [
        "analyze", f"data_dir={toy_run.bench}", f"predictions_dir={toy_run.predictions}",
        f"out={out}", "replicates=20", "two_plane_splits=[]",
    ]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(out.read_text())["plugins"] == RECORDED  # carried on to the next reader


def test_tables_without_plugins_loads_them_and_keeps_the_kind(
    toy_run: ToyRun, plugin_toys: None, tmp_path: Path
) -> None:
    out = tmp_path / "tables"
    argv = ["tables", f"metrics={toy_run.metrics}", f"data_dir={toy_run.bench}", f"out_dir={out}"]
    assert main(argv) == 0
    header = (out / "tables" / "paired_consistency.csv").read_text().splitlines()[0].split(",")
    assert "echo" in header and "echo bound" in header


def test_a_kind_no_plugin_registers_keeps_its_column(toy_run: ToyRun) -> None:
    """The reports never drop what metrics.json holds: an unregistered kind is labelled by name."""
    from reasonbench.analysis.record import MetricsReport
    from reasonbench.reports.lookup import View
    from reasonbench.reports.tables.consistency import kinds, paired_consistency

    report = MetricsReport.from_json(json.loads(toy_run.metrics.read_text()))
    view = View(report, {})
    assert "echo" not in CONTROL_KINDS and kinds(view) == ["inverse", "echo"]
    table = paired_consistency(view, {})
    assert table.header[3:7] == ["inverse", "echo", "inverse bound", "echo bound"]


@pytest.mark.parametrize("command", ["audit", "analyze", "judge-card"])
def test_a_benchmark_whose_plugins_are_gone_is_refused_in_one_line(
    toy_run: ToyRun, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = {
        "audit": ["audit", f"audit_dir={out}"],
        "analyze": ["analyze", f"predictions_dir={toy_run.predictions}", f"out={out}/m.json"],
        "judge-card": ["judge-card", "judge=tfidf", f"out_dir={out}"],
    }[command]
    assert main([*argv, f"data_dir={toy_run.bench}"]) == 2
    assert one_line(capsys) == refusal(command, toy_run.bench / "MANIFEST.json")
    assert not out.exists()


def test_a_metrics_file_whose_plugins_are_gone_is_refused_in_one_line(
    toy_run: ToyRun, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tables"
    argv = ["tables", f"metrics={toy_run.metrics}", f"data_dir={toy_run.bench}", f"out_dir={out}"]
    assert main(argv) == 2
    assert one_line(capsys) == refusal("tables", toy_run.metrics)
    assert not out.exists()


def test_a_prediction_run_meta_records_its_plugins(
    toy_run: ToyRun, plugin_toys: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """analyze reads the plug-ins a prediction run's meta recorded (here one that is gone)."""
    import shutil

    predictions = tmp_path / "preds"
    shutil.copytree(toy_run.predictions, predictions)
    meta = predictions / "mine" / "seed0.meta.json"
    meta.parent.mkdir()
    meta.write_text(json.dumps({"plugins": [{"module": "rb_toys.gone"}]}))
    out = tmp_path / "metrics.json"
    argv = ["analyze", f"data_dir={toy_run.bench}", f"predictions_dir={predictions}", f"out={out}"]
    assert main(argv) == 2
    assert one_line(capsys) == (
        f"reasonbench analyze: error: {meta} was written with the plug-in rb_toys.gone, which "
        "cannot be imported here (no module named 'rb_toys.gone'); set plugins=[rb_toys.gone] "
        "with its package on PYTHONPATH (or install it), in seed0.meta.json"
    )
    assert not out.exists()


def test_an_entry_point_plugin_is_recorded_with_its_distribution() -> None:
    from reasonbench.analysis import METRICS

    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(TOYS / "site"))  # an installed package with an entry point
        try:
            load_entry_points()
            assert {
                "module": "rb_toys_installed",
                "distribution": "rb-toys-installed",  # its METADATA's Name
                "version": "0.1",
            } in loaded_plugins()
        finally:
            METRICS.unregister("installed_verdict_accuracy")
            sys.modules.pop("rb_toys_installed", None)
    assert not any(p["module"] == "rb_toys_installed" for p in loaded_plugins())
    recorded = [{"module": "rb_toys_installed", "distribution": "rb-toys-installed",
                 "version": "0.1"}]  # fmt: skip
    with pytest.raises(PluginError) as refused:
        carry_plugins(recorded, "/x/metrics.json")  # site/ is off the path again
    assert str(refused.value) == (
        "/x/metrics.json was written with the plug-in rb_toys_installed (rb-toys-installed 0.1), "
        "which cannot be imported here (no module named 'rb_toys_installed'); set "
        "plugins=[rb_toys_installed] with its package on PYTHONPATH (or install "
        "rb-toys-installed), in metrics.json"
    )


@pytest.mark.parametrize(
    "recorded", ["rb_toys.control", [{"module": "not a module"}], [3], [{"module": "antigravity"}]]
)
def test_a_malformed_record_is_one_error(recorded: object) -> None:
    with pytest.raises(PluginError, match=r"^/x/MANIFEST\.json records plugins as .*, in MANIFEST"):
        carry_plugins(recorded, "/x/MANIFEST.json")


def test_evaluate_records_its_plugins_and_analyze_carries_them(
    toy_run: ToyRun, tmp_path: Path
) -> None:
    """A judge plug-in named for evaluate, the benchmark's plug-ins carried from MANIFEST.json:
    evaluate.json records all three, and analyze of its records loads them without plugins=."""
    predictions = tmp_path / "preds"
    argv = [
        "evaluate", "plugins=[rb_toys.judge]", "judge=custom", "judge.factory=always",
        "judge.name=always-deny", "judge.args.verdict=deny", f"data_dir={toy_run.bench}",
        f"predictions_dir={predictions}", "splits=[test_locked,controls_locked]",
        "cache_dir=null", "progress=false",
    ]  # fmt: skip
    judge = {"module": "rb_toys.judge", "distribution": None, "version": None}
    with toys_on_path():
        assert main(argv) == 0
    summary = json.loads((predictions / "always-deny" / "evaluate.json").read_text())
    assert summary["plugins"] == [RECORDED[0], judge, RECORDED[1]]
    out = tmp_path / "metrics.json"
    argv = [
        "analyze", f"data_dir={toy_run.bench}", f"predictions_dir={predictions}", f"out={out}",
        "replicates=20", "two_plane_splits=[]",
    ]  # fmt: skip
    with toys_on_path():  # as a fresh process: nothing loaded, the toys importable
        assert main(argv) == 0
    assert json.loads(out.read_text())["plugins"] == [RECORDED[0], judge, RECORDED[1]]
