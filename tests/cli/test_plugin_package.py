"""A plug-in package outside the checkout (issue 42, docs/extending.md): tests/plugin_toys's
``rb_toys`` adds a stratum, a control kind, a metric, a judge and a baseline kind with a setting,
and the whole pipeline runs on them — generate, audit, baselines, evaluate, analyze, tables — as a
user runs it: the commands' entry point, from a temporary directory, with only the package on
``PYTHONPATH`` (not the checkout, so nothing can come from ``tests/``). A command whose inputs
recorded the plug-ins, run without the package, refuses in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import TOYS

REASONBENCH = Path(sys.executable).parent / "reasonbench"
# the steps in one interpreter, as the console script runs each (reasonbench.cli.main:main):
# one start-up instead of six, which is most of this test's time
STEPS = """
import json, sys
from reasonbench.cli.main import main
for argv in json.loads(sys.argv[1]):
    code = main(argv)
    if code:
        sys.exit(f"reasonbench {argv[0]}: exit {code}")
"""


def run(argv: list[str], cwd: Path, toys: bool = True) -> subprocess.CompletedProcess[str]:
    """``argv`` run from ``cwd`` with only the toy package on ``PYTHONPATH`` (or nothing)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if toys:
        env["PYTHONPATH"] = str(TOYS / "src")
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_a_plugin_package_runs_the_whole_pipeline(tmp_path: Path) -> None:
    steps = [
        ["generate", "plugins=[rb_toys.stratum,rb_toys.control]", "benchmark=toy_small",
         "benchmark.controls.kinds=[inverse,echo]", "out_dir=rb", "workers=1", "progress=false",
         "cardinality=false", "freeze=true"],
        # no plugins=: audit loads the two the benchmark's MANIFEST.json recorded
        ["audit", "data_dir=rb", "audit_dir=audit", "workers=1", "progress=false"],
        ["baselines", "plugins=[rb_toys.baseline]", "data_dir=rb", "out_dir=preds",
         "runs.inertia={kind:inertia,train_splits:[train],settings:{confidence:0.25}}",
         "make=[majority,tfidf,inertia]", "tfidf.max_features=300", "tfidf.epochs=2"],
        ["evaluate", "plugins=[rb_toys.judge]", "judge=custom", "judge.factory=always",
         "judge.name=always", "data_dir=rb", "predictions_dir=preds", "progress=false"],
        ["analyze", "plugins=[rb_toys.metric]", "data_dir=rb", "predictions_dir=preds",
         "out=metrics.json", "replicates=20", "two_plane_splits=[]", "progress=false"],
        ["tables", "metrics=metrics.json", "data_dir=rb", "out_dir=report"],
    ]  # fmt: skip
    done = run([sys.executable, "-c", STEPS, json.dumps(steps)], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    manifest = json.loads((tmp_path / "rb" / "MANIFEST.json").read_text())
    # freeze=true writes data/manifests of the working directory, not the package's
    frozen = tmp_path / "data" / "manifests" / "toy_small.json"
    assert frozen.read_bytes() == (tmp_path / "rb" / "MANIFEST.json").read_bytes()
    assert not (
        Path(__file__).resolve().parents[2] / "data" / "manifests" / "toy_small.json"
    ).exists()
    assert [p["module"] for p in manifest["plugins"]] == ["rb_toys.control", "rb_toys.stratum"]
    assert json.loads((tmp_path / "audit" / "AUDIT.json").read_text())["passed"]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    # every plug-in the process had loaded (one process ran every step: baselines' too)
    assert [p["module"] for p in metrics["plugins"]] == [
        "rb_toys.baseline", "rb_toys.control", "rb_toys.judge", "rb_toys.metric", "rb_toys.stratum",
    ]  # fmt: skip
    assert {"majority", "tfidf", "inertia", "always"} <= set(metrics["methods"])
    assert "deny_change_verdict_accuracy" in metrics["metrics"]
    header = (tmp_path / "report" / "tables" / "paired_consistency.csv").read_text().splitlines()[0]
    assert "echo" in header.split(",")

    # the same tables without the package: refused in one line, nothing written
    argv = [str(REASONBENCH), "tables", "metrics=metrics.json", "data_dir=rb", "out_dir=again"]
    done = run(argv, tmp_path, toys=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(
        "reasonbench tables: error: metrics.json was written with the plug-ins rb_toys.baseline, "
        "rb_toys.control, rb_toys.judge, rb_toys.metric, rb_toys.stratum, which cannot be loaded "
        "here"
    ), done.stderr
    assert not (tmp_path / "again").exists()
