"""Which CPU kernels torch runs: the ``cpu_kernels`` setting of train, predict and the model judges.

A CPU's instruction set picks the code that computes a float: ATen's vectorised kernels (softmax,
RMSNorm's reciprocal square root, SiLU, ...) come in AVX-512, AVX2 and plain builds, and MKL's
matrix products in one branch per instruction set. The builds round differently, so the same
weights gave sequence log-probabilities 5.4e-5 apart on one machine run at AVX-512 and at AVX2
(small_cpu's cube model, 128 prompts; MKL alone: 3.8e-6; docs/analysis.md §10), and a greedy
token or a calibration bin can follow.

``portable`` (the default) caps ATen at AVX2 and puts MKL on its AVX2 branch of conditional
numerical reproducibility: code that every x86-64 CPU with AVX2 (Intel since 2013, AMD since
2015) runs the same way, so the same run computes the same bytes on any of them. Measured on an
AVX-512 machine: the small CPU model decodes 3 % and trains 10 % slower at AVX2 (docs/
performance.md). A CPU without AVX2 runs
ATen's plain build and MKL's compatible branch (recorded, so its bytes are told apart); a CPU
that is not x86-64 runs its own kernels and agrees within the tolerance of docs/analysis.md §10.
``native`` leaves both to the machine: its fastest kernels, bytes tied to its CPU.

Both settings are process-wide and fixed at first use: ATen reads its capability at its first
vectorised op, MKL its branch at its first call. So a command applies the setting before it runs a
kernel and checks that it took; a process that already ran kernels otherwise (a caller that used
torch before calling a command in-process) gets a :class:`KernelError` naming the key.
"""

from __future__ import annotations

import ctypes
import os
import platform
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "KERNEL_SETTINGS",
    "KernelError",
    "check_kernels",
    "portable_environment",
    "use_kernels",
]

KERNEL_SETTINGS = ("portable", "native")

# mkl_cbwr.h: the branch query, and the branches this module asks for or reports
_CBWR_BRANCH = 1
_CBWR_BRANCHES = {0: "off", 1: "off", 2: "auto", 3: "compatible", 10: "avx2", 12: "avx512"}
_CBWR_AVX2, _CBWR_COMPATIBLE = 10, 3
_CBWR_UNSUPPORTED_BRANCH = -3
_X86 = {"x86_64", "amd64"}
_ABOVE_AVX2 = "AVX512"  # ATen's capabilities beyond AVX2 all start so (AVX512, AVX512_VNNI, ...)


class KernelError(RuntimeError):
    """The requested kernels cannot be applied in this process; the message names the key."""


def check_kernels(value: object) -> str:
    """``cpu_kernels`` as one of :data:`KERNEL_SETTINGS`; a ValueError naming the key otherwise."""
    if value not in KERNEL_SETTINGS:
        raise ValueError(f"cpu_kernels={value!r}: must be one of {list(KERNEL_SETTINGS)}")
    return str(value)


@cache
def _mkl() -> Any | None:
    """MKL's reproducibility switches, as linked into torch's CPU library (None without MKL)."""
    import torch

    lib_dir = Path(torch.__file__).parent / "lib"
    for name in ("libtorch_cpu.so", "libtorch_cpu.dylib", "torch_cpu.dll"):
        try:
            lib = ctypes.CDLL(str(lib_dir / name))
            get, put = lib.mkl_serv_cbwr_get, lib.mkl_serv_cbwr_set
        except (OSError, AttributeError):
            continue
        get.argtypes, get.restype = [ctypes.c_int], ctypes.c_int
        put.argtypes, put.restype = [ctypes.c_int], ctypes.c_int
        return lib
    return None


def _mkl_branch(wanted: int | None) -> str | None:
    """Ask MKL for ``wanted`` (None: leave it) and return the branch in effect."""
    lib = _mkl()
    if lib is None:
        return None
    if wanted is not None and lib.mkl_serv_cbwr_set(wanted) == _CBWR_UNSUPPORTED_BRANCH:
        lib.mkl_serv_cbwr_set(_CBWR_COMPATIBLE)  # a CPU without AVX2
    branch = int(lib.mkl_serv_cbwr_get(_CBWR_BRANCH))
    return _CBWR_BRANCHES.get(branch, str(branch))


def portable_environment() -> None:
    """Ask for the portable kernels through the environment, without importing torch: read by
    ATen and MKL at their first use in this process, and inherited by the processes it starts
    (the test suite calls this before anything imports torch)."""
    if platform.machine().lower() in _X86:  # a cap: ATen runs min(AVX2, the CPU's best)
        os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
        os.environ["MKL_CBWR"] = "AVX2"


def use_kernels(setting: str) -> dict[str, str | None]:
    """Apply ``setting`` to this process and return the kernels in effect (recorded with the run
    and in predict's cache key): ``{"cpu_kernels", "aten", "mkl"}``."""
    import torch

    check_kernels(setting)
    portable = setting == "portable"
    if portable:
        portable_environment()
    aten = torch.backends.cpu.get_cpu_capability()
    mkl = _mkl_branch(_CBWR_AVX2 if portable else None)
    if portable and (aten.startswith(_ABOVE_AVX2) or mkl not in (None, "avx2", "compatible")):
        raise KernelError(
            f"cpu_kernels=portable: this process already runs torch's {aten} kernels (MKL branch "
            f"{mkl}); run the command in a fresh process, or set cpu_kernels=native"
        )
    return {"cpu_kernels": setting, "aten": aten, "mkl": mkl}
