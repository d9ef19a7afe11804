"""Where a model runs: the ``device`` and ``threads`` settings of train, predict and the model judges.

``auto`` means the GPU when torch sees one, else the CPU; ``cpu`` forces the CPU (and tells
accelerate so explicitly, which it needs to run several CPU processes — ``accelerate launch
--num_processes 2`` or ``torchrun`` — as one data-parallel job over gloo); ``cuda`` (judges only)
insists on the GPU.

``threads`` is torch's intra-op CPU thread count, a fixed number in the configuration rather than
whatever the machine or launcher offers (``OMP_NUM_THREADS``, the core count, accelerate's own
choice): a CPU kernel splits a reduction among its threads, so another count can round a float
differently, and a run must compute the same bytes however it is launched (docs/training.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

__all__ = ["DEVICE_SETTINGS", "check_threads", "resolve_device", "torch_threads", "use_cpu"]

DEVICE_SETTINGS = ("auto", "cpu", "cuda")


def resolve_device(setting: str = "auto") -> str:
    """``auto`` -> ``cuda`` or ``cpu``; ``cpu`` and ``cuda`` as given."""
    if setting not in DEVICE_SETTINGS:
        raise ValueError(f"device must be one of {list(DEVICE_SETTINGS)}, got {setting!r}")
    if setting == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return setting


def use_cpu(setting: str = "auto") -> bool:
    """Whether accelerate must be told ``cpu=True``."""
    return resolve_device(setting) == "cpu"


def check_threads(value: object) -> int:
    """``threads`` as an int >= 1; a ValueError naming the key otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"threads={value!r}: torch's CPU thread count must be a whole number >= 1")
    return value


@contextmanager
def torch_threads(threads: int) -> Iterator[int]:
    """Run the block with ``threads`` intra-op threads (OpenMP and MKL), then restore the
    previous count, so a command called in-process leaves its caller's setting alone. Yields the
    count torch reports in effect. Inter-op threads are left alone: eager code runs one op at a
    time, so they never change a result (and torch lets a process set them only once)."""
    wanted = check_threads(threads)
    before = torch.get_num_threads()
    torch.set_num_threads(wanted)
    try:
        yield torch.get_num_threads()
    finally:
        torch.set_num_threads(before)
