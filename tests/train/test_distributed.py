"""Data parallel for real: ``accelerate launch --multi_gpu --num_processes 2`` on CPU (gloo).

Training with 2 processes gives the adapter of 1 process with the same global batch, up to
floating-point rounding (the step's gradient is summed in another order); LoRA dropout is off,
since every process draws its own dropout masks. Prediction with 2 ranks writes the same records as
1 rank — the same rows in the same order, the same outputs and parsed answers — because batches
are formed before they are dealt to the ranks; confidences agree to float32 rounding (measured:
~5e-7 relative in 10 of 80 records), since CPU kernels may round a logit differently in a
process that runs under ``torch.distributed`` (two ranks under the launcher agree bit for bit
with one rank under it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from safetensors.torch import load_file

from reasonbench.infer import predict
from reasonbench.train import train
from tests.train.helpers import composed, tiny_overrides

TOLERANCE = 1e-6  # max |difference| of any LoRA weight, 1 vs 2 processes
CONFIDENCE_TOLERANCE = 1e-5  # relative, a record's confidence, 1 vs 2 ranks
TRAIN = [
    "model=tiny_1.7b", "target=direct_receipt", "optim.max_steps=4", "optim.batch_size=8",
    "save_every=4", "lora.dropout=0.0",
]  # fmt: skip
PREDICT = [
    "model=tiny_1.7b", "target=direct_receipt", "splits=[test_locked]", "max_new_tokens=8",
    "model.predict_batch_size=16",
]  # fmt: skip


def overrides(bench: Path, cache: Path, root: Path) -> tuple[list[str], list[str]]:
    train = tiny_overrides(bench, cache, *TRAIN, f"out_dir={root / 'run'}")
    predict = tiny_overrides(
        bench, cache, *PREDICT, f"run_dir={root / 'run'}", f"predictions_dir={root / 'preds'}",
        f"cache_dir={root / 'cache'}",
    )  # fmt: skip
    return train, predict


@pytest.fixture(scope="module")
def one(small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The single-process reference, in this process: train, then predict."""
    root = tmp_path_factory.mktemp("dp-one")
    train_overrides, predict_overrides = overrides(small_bench, tiny_cache, root)
    assert train(composed("train", train_overrides))["world_size"] == 1
    predict(composed("predict", predict_overrides))
    return root


@pytest.fixture(scope="module")
def two(small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``accelerate launch --multi_gpu --num_processes 2``: without a GPU accelerate starts one
    process unless told ``--multi_gpu``; it then runs ``torch.distributed`` over gloo (the runs'
    ``device: auto`` picks the CPU). Train and predict run in the same two processes."""
    root = tmp_path_factory.mktemp("dp-two")
    train_overrides, predict_overrides = overrides(small_bench, tiny_cache, root)
    argv = [
        sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
        "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
        "--num_cpu_threads_per_process", "1", str(Path(__file__).with_name("launched.py")),
        *train_overrides, "--", *predict_overrides,
    ]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return root


def test_two_processes_train_the_same_adapter(one: Path, two: Path) -> None:
    summary = json.loads((two / "run" / "RUN.json").read_text())
    reference = json.loads((one / "run" / "RUN.json").read_text())
    assert summary["world_size"] == 2 and summary["finished"]
    # the same examples, so the same token counts, summed over both processes
    assert summary["tokens"] == reference["tokens"]
    weights = [
        load_file(str(r / "run" / "adapter" / "adapter_model.safetensors")) for r in (one, two)
    ]
    assert weights[0].keys() == weights[1].keys()
    worst = max(float((weights[0][k] - weights[1][k]).abs().max()) for k in weights[0])
    print(f"largest LoRA weight difference, 1 vs 2 processes: {worst:.2e}")
    assert worst <= TOLERANCE, f"1 vs 2 processes differ by {worst:.2e}"
    moved = max(float(w.abs().max()) for k, w in weights[0].items() if "lora_B" in k)
    assert moved > 100 * TOLERANCE  # the adapter trained: the tolerance is not vacuous


def test_two_ranks_predict_the_same_records(one: Path, two: Path) -> None:
    (first,) = (one / "preds").rglob("seed0.jsonl")
    second = two / first.relative_to(one)
    records = [json.loads(line) for line in first.read_text().splitlines()]
    again = [json.loads(line) for line in second.read_text().splitlines()]
    assert len(records) == len(again) == 80
    for a, b in zip(records, again, strict=True):
        ca, cb = a.pop("confidence"), b.pop("confidence")
        assert a == b  # every field but the confidence, exactly
        assert cb == pytest.approx(ca, rel=CONFIDENCE_TOLERANCE, abs=0.0)
    # both ranks decoded (80 rows in 5 batches of 16: 3 on rank 0, 2 on rank 1)
    caches = sorted(p.name for p in (two / "cache").rglob("rank-*.jsonl"))
    assert caches == ["rank-0.jsonl", "rank-1.jsonl"]
    assert not list(two.rglob("*.partial"))
