"""Resuming never runs a checkpoint's code: a run folder handed over by someone else may hold a
pickle payload, and ``train`` refuses it with one line, before any of it runs (issue 29)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
import torch

from reasonbench.cli.main import main
from reasonbench.train import checkpoint, train
from tests.train.helpers import composed, tiny_overrides


def _plant(marker: str) -> None:
    """What the payload runs when unpickled: proof that it ran."""
    Path(marker).write_text("the checkpoint's code ran")


class Payload:
    """Unpickling this calls :func:`_plant` (a ``__reduce__`` payload, as an attacker writes)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (_plant, (str(self.marker),))


@pytest.fixture
def stopped(small_bench: Path, tiny_cache: Path, tmp_path: Path) -> tuple[list[str], Path]:
    """A run stopped after its first checkpoint: (its train overrides, the checkpoint)."""
    overrides = tiny_overrides(
        small_bench, tiny_cache, "model=tiny_1.7b", "target=direct_verdict", "optim.max_steps=2",
        "optim.batch_size=4", "save_every=1", f"out_dir={tmp_path / 'run'}",
    )  # fmt: skip
    assert not train(composed("train", [*overrides, "stop_after_steps=1"]))["finished"]
    return overrides, tmp_path / "run" / "checkpoints" / "step-00000001"


def test_resume_refuses_a_planted_payload(
    stopped: tuple[list[str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides, step = stopped
    marker = tmp_path / "payload-ran"
    state = step / checkpoint.STATE_FILE
    real = checkpoint.read_state(state)  # our own checkpoint loads
    assert real["step"] == 1
    torch.save({**real, "counters": Payload(marker)}, state)  # the rest of the file is genuine
    capsys.readouterr()
    assert main(["train", *overrides]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"reasonbench train: error: {state} holds objects no reasonbench checkpoint holds (code "
        f"could run if it were loaded): refused, nothing in it ran; delete {step} to resume from "
        "an earlier checkpoint, or train into another out_dir"
    ]
    assert not marker.exists()
    assert not (step.parents[1] / "RUN.json").exists()
    torch.load(state, weights_only=False)  # the payload is real: loading it unsafely runs it
    assert marker.exists()


@pytest.mark.parametrize("writer", ["torch.save", "pickle.dump"])
def test_a_payload_in_a_process_rng_file_is_refused(
    stopped: tuple[list[str], Path], tmp_path: Path, writer: str
) -> None:
    """Every file of a checkpoint is read the same way, a plain pickle as well as torch's zip."""
    _, step = stopped
    marker, rng = tmp_path / "payload-ran", step / "rng-0.pt"
    assert checkpoint.load(step, 0)[1] is not None  # our own RNG state (numpy arrays) loads
    if writer == "torch.save":
        torch.save({"python": Payload(marker)}, rng)
    else:
        rng.write_bytes(pickle.dumps({"python": Payload(marker)}))
    with pytest.raises(checkpoint.UnsafeCheckpoint, match="rng-0.pt holds objects"):
        checkpoint.load(step, 0)
    assert not marker.exists()
