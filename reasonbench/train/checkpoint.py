"""Checkpoints for resume: trainable weights, optimizer, scheduler, step and every RNG.

Only the LoRA parameters are saved (the frozen backbone is reloaded from its files), so a
checkpoint of a 1.7B run is megabytes, not gigabytes. Each process writes its own RNG state into a
staging directory; the main process adds the shared state and renames the directory into place,
so a kill at any moment leaves either a complete checkpoint or none (stale staging directories
are removed on the next start).

Resuming never runs a checkpoint's code: the files are pickles, and a run folder may come from
someone else, so they are read with ``torch.load(weights_only=True)``, which rebuilds tensors,
numbers, strings and containers only, plus the four numpy globals an RNG state needs
(:data:`SAFE_GLOBALS`). Anything else (a ``__reduce__`` payload) is refused before it runs.
"""

from __future__ import annotations

import pickle
import random
import re
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

STEP_DIR = re.compile(r"^step-(\d{8})$")
STATE_FILE = "state.pt"

# What unpickling our own state needs beyond torch's defaults: numpy's legacy RNG state holds a
# uint32 array (``np.random.get_state``), pickled as ndarray, dtype, the uint32 dtype's class and
# numpy's reconstructor. Taken from numpy's own objects, so their module paths (numpy 1 vs 2) do
# not matter.
_RECONSTRUCT: Any = np.zeros(1, np.uint32).__reduce__()[0]
SAFE_GLOBALS: tuple[Callable[..., Any], ...] = (
    np.ndarray, np.dtype, type(np.dtype(np.uint32)), _RECONSTRUCT,
)  # fmt: skip


class UnsafeCheckpoint(ValueError):
    """A checkpoint file that holds more than our own state could: refused, nothing of it ran."""


def checkpoint_root(out_dir: Path) -> Path:
    return out_dir / "checkpoints"


def latest_checkpoint(out_dir: Path) -> Path | None:
    root = checkpoint_root(out_dir)
    if not root.is_dir():
        return None
    done = [p for p in root.iterdir() if STEP_DIR.match(p.name) and (p / STATE_FILE).is_file()]
    return max(done, key=lambda p: p.name) if done else None


def remove_stale(out_dir: Path) -> None:
    root = checkpoint_root(out_dir)
    if root.is_dir():
        for p in root.iterdir():
            if p.name.startswith(".staging-"):
                shutil.rmtree(p, ignore_errors=True)


def rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def staging_dir(out_dir: Path, step: int) -> Path:
    return checkpoint_root(out_dir) / f".staging-{step:08d}"


def write_rng(out_dir: Path, step: int, rank: int) -> None:
    """Every process: its own RNG state (dropout masks differ per process)."""
    staging = staging_dir(out_dir, step)
    staging.mkdir(parents=True, exist_ok=True)
    torch.save(rng_state(), staging / f"rng-{rank}.pt")


def commit(out_dir: Path, step: int, state: dict[str, Any], keep: int) -> Path:
    """Main process, after every process wrote its RNG: shared state, then the atomic rename."""
    staging = staging_dir(out_dir, step)
    torch.save(state, staging / STATE_FILE)
    final = checkpoint_root(out_dir) / f"step-{step:08d}"
    if final.exists():
        shutil.rmtree(final)
    staging.rename(final)
    done = sorted(p for p in checkpoint_root(out_dir).iterdir() if STEP_DIR.match(p.name))
    for old in done[: max(0, len(done) - keep)]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def read_state(file: Path) -> Any:
    """One checkpoint file, unpickled without running anything it might hold."""
    try:
        # a foreign pickle protocol makes torch warn on stderr; the refusal below says it all
        with warnings.catch_warnings(), torch.serialization.safe_globals(list(SAFE_GLOBALS)):
            warnings.simplefilter("ignore")
            return torch.load(file, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise UnsafeCheckpoint(
            f"{file} holds objects no reasonbench checkpoint holds (code could run if it were "
            f"loaded): refused, nothing in it ran; delete {file.parent} to resume from an "
            "earlier checkpoint, or train into another out_dir"
        ) from None


def load(path: Path, rank: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(shared state, this process's RNG state or None if it has none)."""
    state = read_state(path / STATE_FILE)
    rng_file = path / f"rng-{rank}.pt"
    rng = read_state(rng_file) if rng_file.is_file() else None
    return state, rng
