"""Where a model runs: the ``device`` setting of train, predict and the model judges.

``auto`` means the GPU when torch sees one, else the CPU; ``cpu`` forces the CPU (and tells
accelerate so explicitly, which it needs to run several CPU processes — ``accelerate launch
--num_processes 2`` or ``torchrun`` — as one data-parallel job over gloo); ``cuda`` (judges only)
insists on the GPU.
"""

from __future__ import annotations

import torch

__all__ = ["DEVICE_SETTINGS", "resolve_device", "use_cpu"]

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
