"""Plug-ins from the command line (docs/extending.md): a user's package outside ``reasonbench/``
(tests/plugin_toys) registers a metric, a judge, a certify kind, a stratum with its benchmark, a
control kind and a backbone source, named with ``plugins=[...]`` on ``PYTHONPATH``, or loaded
through an installed package's ``reasonbench.plugins`` entry point; each then runs through its
command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reasonbench.analysis import METRICS
from reasonbench.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
TOYS = ROOT / "tests" / "plugin_toys"


@pytest.fixture(scope="module")
def small_predictions(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import baseline_predictions

    return baseline_predictions(small_bench, tmp_path_factory.mktemp("preds"), max_features=500)


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def test_a_metric_plugin_reaches_analyze(
    plugin_toys: None, small_bench: Path, small_predictions: Path, tmp_path: Path
) -> None:
    out = tmp_path / "metrics.json"
    argv = [
        "analyze", "plugins=[rb_toys.metric]", f"data_dir={small_bench}",
        f"predictions_dir={small_predictions}", f"out={out}", "replicates=20",
    ]  # fmt: skip
    assert main(argv) == 0
    metrics = json.loads(out.read_text())
    assert "deny_change_verdict_accuracy" in metrics["metrics"]
    pooled = metrics["methods"]["tfidf"]["pooled"]["test_locked"]["metrics"]
    assert 0 <= pooled["deny_change_verdict_accuracy"]["value"] <= 1


def test_a_baseline_kind_plugin_takes_its_settings_from_the_run(
    plugin_toys: None, small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rb_toys.baseline registers ``inertia``; a run sets its ``confidence``, and a setting it
    does not take is its one-line refusal, naming the run."""
    from reasonbench.predictions.io import read_predictions

    out = tmp_path / "p"
    base = ["baselines", "plugins=[rb_toys.baseline]", f"data_dir={small_bench}", f"out_dir={out}"]
    run = "runs.inertia={kind:inertia,train_splits:[train],settings:{confidence:0.25}}"
    assert main([*base, run, "make=[inertia]"]) == 0
    records = read_predictions(out / "inertia.parquet")
    assert records and {(r.confidence, r.pred_receipt) for r in records} == {(0.25, "[]")}
    assert all(r.pred_new_verdict == r.pred_old_verdict for r in records)
    bad = "runs.inertia={kind:inertia,train_splits:[train],settings:{confidance:0.25}}"
    assert main([*base, bad, "make=[inertia]", "overwrite=true"]) == 2
    assert one_line(capsys) == (
        "reasonbench baselines: error: runs.inertia.settings: unknown setting(s) ['confidance']; "
        "inertia takes confidence"
    )


def test_an_installed_entry_point_is_loaded_by_every_command(
    plugin_toys: None,
    small_bench: Path,
    small_predictions: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # site/ holds rb_toys_installed-0.1.dist-info: importlib.metadata reads its entry point
    monkeypatch.syspath_prepend(str(TOYS / "site"))
    try:
        out = tmp_path / "metrics.json"
        argv = [
            "analyze", f"data_dir={small_bench}", f"predictions_dir={small_predictions}",
            f"out={out}", "replicates=20",
        ]  # fmt: skip
        assert main(argv) == 0
        assert "installed_verdict_accuracy" in json.loads(out.read_text())["metrics"]
    finally:
        METRICS.unregister("installed_verdict_accuracy")
        sys.modules.pop("rb_toys_installed", None)


def test_a_judge_plugin_gets_a_judge_card(
    plugin_toys: None, small_bench: Path, tmp_path: Path
) -> None:
    out = tmp_path / "card"
    argv = [
        "judge-card", "plugins=[rb_toys.judge]", "judge=custom", "judge.factory=always",
        "judge.name=always-deny", "judge.args.verdict=deny", f"data_dir={small_bench}",
        f"out_dir={out}", "max_items=6", "replicates=50", "controls=false",
    ]  # fmt: skip
    assert main(argv) == 0
    card = json.loads((out / "judge_card.json").read_text())
    assert card["judge"]["name"] == "always-deny" and card["judge"]["factory"] == "always"


def test_a_certify_kind_plugin_certifies(plugin_toys: None, tmp_path: Path) -> None:
    from tests.certify.conftest import write_cases

    cases = write_cases(tmp_path / "cases.jsonl")
    out = tmp_path / "out"
    argv = [
        "certify", "plugins=[rb_toys.certify_kind]", f"cases={cases}",
        "adjudicator=passmark:pass_mark", "labels=[fail,pass,refer]", f"out_dir={out}",
        "progress=false",
    ]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["adjudicator_id"] == "passmark:pass_mark"


def test_a_stratum_and_a_control_kind_plugin_generate_and_audit(
    plugin_toys: None, tmp_path: Path
) -> None:
    out = tmp_path / "rb"
    argv = [
        "generate", "plugins=[rb_toys.stratum,rb_toys.control]", "benchmark=toy_small",
        "benchmark.controls.kinds=[inverse,echo]", f"out_dir={out}", "workers=1",
        "progress=false", "cardinality=false",
    ]  # fmt: skip
    assert main(argv) == 0
    assert main(["audit", "plugins=[rb_toys.stratum,rb_toys.control]", f"data_dir={out}",
                 f"audit_dir={tmp_path / 'audit'}", "workers=1", "progress=false"]) == 0  # fmt: skip
    from reasonbench.io import read_split

    assert {r["stratum"] for r in read_split(out, "test_locked", ["stratum"])} == {"toy"}
    controls = read_split(out, "controls_locked", ["control"])
    assert {c["control"] for c in controls} == {"inverse", "echo"}


def test_a_backbone_source_plugin_resolves_a_model(plugin_toys: None, tmp_path: Path) -> None:
    import rb_toys.backbone  # noqa: F401  # what plugins=[rb_toys.backbone] imports

    from reasonbench.models import build_tiny
    from reasonbench.models.backbone import resolve_backbone
    from tests.models.test_backbones import fake_benchmark

    built = build_tiny(fake_benchmark(tmp_path / "bench"), tmp_path / "tiny", vocab_size=400)
    backbone = resolve_backbone({"name": "mine", "source": "dir", "path": str(built)})
    assert backbone.path == built and backbone.name == "mine"
    tiny = {
        "name": "tiny",
        "source": "tiny",
        "cache_dir": str(tmp_path / "tiny"),
        "vocab_size": 400,
    }
    assert backbone.identity == resolve_backbone(tiny, tmp_path / "bench").identity


def test_train_reaches_a_backbone_source_plugin(
    plugin_toys: None, small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "train", "plugins=[rb_toys.backbone]", "model=qwen3_0.6b", "model.source=dir",
        f"model.path={tmp_path}", f"data_dir={small_bench}", f"out_dir={tmp_path / 'run'}",
    ]  # fmt: skip
    assert main(argv) == 2  # the toy source's own refusal: the command line chose it
    assert one_line(capsys) == (
        f"reasonbench train: error: model.path={tmp_path} is not a model directory "
        "(model.source=dir)"
    )


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        (
            "plugins=[rb_toys.nope]",
            "plugin 'rb_toys.nope' cannot be imported (no module named 'rb_toys.nope'; is its "
            "package on PYTHONPATH?), key plugins",
        ),
        (
            "plugins=[rb_toys.broken]",
            "plugin 'rb_toys.broken' failed while importing (RuntimeError: the toy plug-in is "
            "broken on purpose), key plugins",
        ),
        (
            "plugins=rb_toys.metric,rb_toys.judge",
            "give plug-ins as plugins=[pkg.module,...], not "
            "'plugins=rb_toys.metric,rb_toys.judge', in the command line",
        ),
    ],
)
def test_a_plugin_that_cannot_be_loaded_is_one_line(
    plugin_toys: None, plugins: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", plugins]) == 2
    assert one_line(capsys) == f"reasonbench verify: error: {message}"


def test_a_control_kind_without_its_cells_is_refused_before_generate(
    plugin_toys: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "generate", "plugins=[rb_toys.stratum,rb_toys.flip]", "benchmark=toy_small",
        "benchmark.controls.kinds=[flip]", f"out_dir={tmp_path / 'rb'}", "workers=1",
    ]  # fmt: skip
    assert main(argv) == 2
    line = one_line(capsys)
    assert line.startswith("reasonbench generate: error: plugin 'rb_toys.flip' failed while "), line
    assert (
        "control kind 'flip' has relation inverse_consistent but no cells=: set "
        "ControlKind(cells=...) to how its control's cube relates to the parent's" in line
    )
    assert not (tmp_path / "rb").exists()


def test_plugins_from_a_shell_with_pythonpath(tmp_path: Path) -> None:
    """The recipe as a user types it: the console script, the package on PYTHONPATH."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TOYS / "src"), str(ROOT)])}
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [str(bin_dir / "reasonbench"), "judge-card", "plugins=[rb_toys.judge]", "judge=custom",
         "judge.factory=always", "judge.name=x", "--cfg", "job"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "factory: always" in done.stdout and "plugins" not in done.stdout
