"""Ctrl-C at any moment (reasonbench/cli/interrupt.py): one line, exit status 130, within 2 s of
the signal, no traceback, no worker left and nothing half-written — at several delays per
command, from the imports (0.3 s) through Hydra's composition (~1 s) into its long work.

The signal goes to the whole process group, as a terminal's Ctrl-C does: forked workers
(``generate workers=2``) and the certify adjudicator's threads get it too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.certify.conftest import CASES, write_cases
from tests.train.helpers import tiny_overrides

ROOT = Path(__file__).resolve().parents[2]
LINE = "reasonbench {}: interrupted; nothing half-written was kept (rerun to resume)"
# the imports, Hydra's composition, the command's own long work; before 0.1 s the interpreter
# itself is starting (about 70 ms here, site and the editable install's finder included): no
# code of reasonbench has run yet, and Python's own handling applies (docs/reliability.md)
DELAYS = (0.3, 1.0, 4.0)
LIMIT_S = 2.0


def interrupted(argv: list[str], delay: float, out: Path) -> None:
    """Start ``reasonbench argv``, send the process group SIGINT after ``delay`` seconds, and
    check how it ends."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}  # tests.certify
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("reasonbench")), *argv],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    time.sleep(delay)
    assert proc.poll() is None, f"finished before {delay} s: {proc.communicate()}"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    lines = err.strip().splitlines()
    assert proc.returncode == 130, err[-2000:]
    assert took <= LIMIT_S, f"{took:.2f} s from the signal to the exit"
    assert lines and lines[-1] == LINE.format(argv[0]), err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    assert err.count("interrupted;") == 1
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:  # the workers end with their parent
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("a process of the command outlived it")
    leftovers = [p.name for p in out.rglob("*") if p.name.endswith((".tmp", ".partial"))]
    assert leftovers == []
    for path in out.rglob("*.json"):  # whatever was written is whole
        json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("delay", DELAYS)
def test_analyze(delay: float, small_bench: Path, tmp_path: Path) -> None:
    from tests.conftest import baseline_predictions

    predictions = baseline_predictions(small_bench, tmp_path / "preds")
    argv = ["analyze", f"data_dir={small_bench}", f"predictions_dir={predictions}",
            f"out={tmp_path / 'out' / 'metrics.json'}", "replicates=30000000"]  # fmt: skip
    interrupted(argv, delay, tmp_path)


@pytest.mark.parametrize("delay", DELAYS)
def test_generate(delay: float, tmp_path: Path) -> None:
    argv = ["generate", "benchmark=small", f"out_dir={tmp_path / 'rb'}", "workers=2"]
    interrupted(argv, delay, tmp_path)


@pytest.mark.parametrize("delay", DELAYS)
def test_certify(delay: float, tmp_path: Path) -> None:
    many = [{**c, "id": f"{c['id']}-{i}"} for i in range(4) for c in CASES]  # about 12 s
    cases = write_cases(tmp_path / "cases.jsonl", many)
    argv = ["certify", f"cases={cases}", "adjudicator=python:tests.certify.adjudicators:slow_grade",
            "labels=[fail,pass,refer]", f"out_dir={tmp_path / 'out'}", "execution=exhaustive",
            "workers=2"]  # fmt: skip
    interrupted(argv, delay, tmp_path)


@pytest.mark.parametrize("delay", DELAYS)
def test_predict(
    delay: float, small_bench: Path, tiny_cache: Path, tiny_cube_run: Path, tmp_path: Path
) -> None:
    extra = [f"run_dir={tiny_cube_run}", f"predictions_dir={tmp_path / 'preds'}",
             f"cache_dir={tmp_path / 'cache'}", "max_new_tokens=256", "batch_size=4"]  # fmt: skip
    interrupted(["predict", *tiny_overrides(small_bench, tiny_cache, *extra)], delay, tmp_path)
