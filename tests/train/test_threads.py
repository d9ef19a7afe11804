"""``threads`` is part of a run: ``train`` and ``predict`` set torch's CPU thread count themselves,
so a run computes the same bytes however it is launched and whatever ``OMP_NUM_THREADS`` says.

Why it matters, measured on the 2-core reference machine with this test's run (the tiny model,
``direct_receipt``, 2 steps of 4): 3 threads give another adapter than 1 (the last bits of some
LoRA weights), and decoding the tiny model at 2 threads changes ~15 % of the confidences by up to
1e-6 relative. Another CPU splits its reductions elsewhere (issue 29: 1 and 2 threads differed
there). The submitit case is ``tests/cli/test_rehearsal.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from reasonbench.cli.main import main
from reasonbench.infer import predict
from reasonbench.train import RunConflict, train
from tests.train.helpers import composed, tiny_overrides

RUN = ["model=tiny", "target=direct_receipt", "optim.max_steps=2", "optim.batch_size=4",
       "save_every=2", "seed=1"]  # fmt: skip
# A launcher's environment asking for 3 threads, a count that rounds this run differently here.
# MKL_DYNAMIC=FALSE: otherwise MKL caps a count from the environment at the physical cores (2
# here), and torch starts with that instead of 3. OMP_WAIT_POLICY=PASSIVE: idle threads sleep
# instead of spinning against the shared machine's other jobs (no effect on any result).
ENVIRONMENT = {"OMP_NUM_THREADS": "3", "MKL_DYNAMIC": "FALSE", "OMP_WAIT_POLICY": "PASSIVE"}


@pytest.fixture(scope="module")
def here(
    small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[int, Path]:
    """The run at ``threads=1`` and ``threads=2``, trained in this process."""
    root = tmp_path_factory.mktemp("threads-here")
    common = tiny_overrides(small_bench, tiny_cache, *RUN)
    for n in (1, 2):
        summary = train(composed("train", [*common, f"threads={n}", f"out_dir={root}/{n}"]))
        assert summary["threads"] == n
        assert summary["cpu_kernels"]["cpu_kernels"] == "portable"  # the default, as applied
        assert torch.get_num_threads() == 1  # the caller's count is restored after the run
    return {n: root / str(n) for n in (1, 2)}


def test_the_run_not_the_environment_sets_the_threads(
    small_bench: Path, tiny_cache: Path, here: dict[int, Path], tmp_path: Path
) -> None:
    """The same runs as a sweep (``-m``) in another process whose environment asks for 3
    threads: the same adapters as in this process, byte for byte, and each ``RUN.json`` names
    the count torch ran with."""
    common = tiny_overrides(small_bench, tiny_cache, *RUN)
    argv = [sys.executable, "-m", "reasonbench", "train", "-m", "threads=1,2", *common,
            f"out_dir={tmp_path}/there${{threads}}", f"hydra.sweep.dir={tmp_path}/sweep"]  # fmt: skip
    env = {**os.environ, **ENVIRONMENT}
    done = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    for n in (1, 2):
        mine = json.loads((here[n] / "RUN.json").read_text())
        there = json.loads((tmp_path / f"there{n}" / "RUN.json").read_text())
        assert there["adapter_sha256"] == mine["adapter_sha256"], f"threads={n}"
        assert mine["threads"] == there["threads"] == n
        assert mine["cpu_kernels"] == there["cpu_kernels"]


def test_another_thread_count_does_not_resume_a_run(
    small_bench: Path, tiny_cache: Path, here: dict[int, Path]
) -> None:
    """A rerun in the same ``out_dir`` at another count is refused, naming ``threads``."""
    cfg = composed(
        "train", [*tiny_overrides(small_bench, tiny_cache, *RUN), "threads=2", f"out_dir={here[1]}"]
    )
    with pytest.raises(RunConflict, match=r"differs in: threads\)"):
        train(cfg)


def test_other_cpu_kernels_do_not_resume_a_run(
    small_bench: Path, tiny_cache: Path, here: dict[int, Path]
) -> None:
    """Other kernels round otherwise (tests/models/test_kernels.py): refused like a count."""
    overrides = [*tiny_overrides(small_bench, tiny_cache, *RUN), "cpu_kernels=native"]
    cfg = composed("train", [*overrides, f"out_dir={here[1]}"])
    with pytest.raises(RunConflict, match=r"differs in: cpu_kernels\)"):
        train(cfg)


def test_a_thread_count_below_one_is_refused(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = "0"
    for command in ("train", "predict"):
        argv = [command, "model=tiny", f"data_dir={small_bench}", f"threads={value}",
                f"out_dir={tmp_path / 'out'}", "progress=false"]  # fmt: skip
        if command == "predict":
            argv[-2] = f"out={tmp_path / 'out.jsonl'}"
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [
            f"reasonbench {command}: error: threads={value}: torch's CPU thread count must be a "
            "whole number >= 1"
        ]
    assert not list(tmp_path.iterdir())  # refused before anything was written


def test_predict_records_its_threads_and_keys_its_cache_by_them(
    small_bench: Path, tiny_cache: Path, here: dict[int, Path], tmp_path: Path
) -> None:
    """``predict`` decodes with its ``threads``: the count is in the meta file's decoding config
    and in every cache key, so a generation cached at 2 threads is not served to a run at 1."""
    reports = {}
    for n in (2, 1):
        cfg = composed(
            "predict",
            tiny_overrides(
                small_bench, tiny_cache, *RUN[:2], "seed=1", f"run_dir={here[1]}",
                f"predictions_dir={tmp_path}/preds{n}", f"cache_dir={tmp_path}/cache",
                "splits=[test_locked]", "max_new_tokens=4", f"threads={n}",
            ),
        )  # fmt: skip
        reports[n] = predict(cfg)
        meta = json.loads(Path(reports[n]["meta"]).read_text())
        assert meta["decoding"]["threads"] == n
        assert meta["decoding"]["cpu_kernels"]["cpu_kernels"] == "portable"
        assert torch.get_num_threads() == 1
    assert reports[1]["computed"] == reports[2]["computed"] == reports[1]["records"] > 0
