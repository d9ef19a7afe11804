"""Which CPU kernels torch runs: the ``cpu_kernels`` setting of train, predict and the model judges.

A CPU's instruction set picks the code that computes a float: ATen's vectorised kernels (softmax,
RMSNorm's reciprocal square root, SiLU, ...) come in AVX-512, AVX2 and plain builds, and MKL's
matrix products in one branch per instruction set *and vendor*. The branches round differently, so
the same weights gave sequence log-probabilities 5.4e-5 apart between AVX-512 and AVX2 code
(small_cpu's cube model, 128 prompts), and a calibration bin can follow (docs/reproducibility.md).

``portable`` (the default) caps ATen at AVX2 and puts MKL on its ``COMPATIBLE`` branch of
conditional numerical reproducibility. MKL's AVX2 branch is not an option: MKL refuses it on an AMD
CPU (``mkl_serv_cbwr_set`` returns -3 there, measured on an AMD EPYC), and a run that fell back to
another branch on one vendor computed other bytes than on the other. ``COMPATIBLE`` is the one branch
MKL documents to give the same results on Intel and compatible processors, so the same run computes
the same bytes on any x86-64 CPU with AVX2, Intel or AMD. It costs speed (MKL's compatible matrix
products run SSE2 code: docs/performance.md). A CPU without AVX2 runs ATen's plain build (recorded,
so its bytes are told apart); a build or CPU where the branch cannot be had (not x86-64, a torch
without MKL) runs its own kernels, says so in one line and falls to the tolerance class of
docs/reproducibility.md. ``native`` leaves both to the machine: its fastest kernels, bytes tied to
its CPU.

Both settings are process-wide and fixed at first use: ATen reads its capability at its first
vectorised op, MKL its branch at its first call. So a command applies the setting before it runs a
kernel and checks that it took; a process that already ran kernels otherwise (a caller that used
torch before calling a command in-process) gets a :class:`KernelError` naming the key.

A lower ATen cap already in the environment (``ATEN_CPU_CAPABILITY=default``) is kept: that is how
``scripts/reproducibility_matrix.py`` emulates a CPU without AVX2 on this one.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "KERNEL_SETTINGS",
    "PORTABLE",
    "PORTABLE_MKL",
    "KernelError",
    "check_kernels",
    "portable_note",
    "portable_environment",
    "use_kernels",
]

PORTABLE = "portable"  # the default of every command and judge that runs a model
KERNEL_SETTINGS = (PORTABLE, "native")

# mkl_cbwr.h: the branch query, and the branches this module asks for or reports
_CBWR_BRANCH = 1
_CBWR_BRANCHES = {0: "off", 1: "off", 2: "auto", 3: "compatible", 10: "avx2", 12: "avx512"}
_CBWR_COMPATIBLE = 3
PORTABLE_MKL = "compatible"  # the MKL branch portable asks for, as recorded
_X86 = {"x86_64", "amd64"}
_ABOVE_AVX2 = "AVX512"  # ATen's capabilities beyond AVX2 all start so (AVX512, AVX512_VNNI, ...)
_SAID: set[str] = set()
_BELOW_AVX2 = "default"  # ATEN_CPU_CAPABILITY's plain build: a lower cap than portable's


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
    """Ask MKL for ``wanted`` (None: leave it) and return the branch in effect (None: no MKL).
    A refused request leaves the branch as it was; the caller compares what it reads back."""
    lib = _mkl()
    if lib is None:
        return None
    if wanted is not None:
        lib.mkl_serv_cbwr_set(wanted)
    branch = int(lib.mkl_serv_cbwr_get(_CBWR_BRANCH))
    return _CBWR_BRANCHES.get(branch, str(branch))


def portable_environment() -> None:
    """Ask for the portable kernels through the environment, without importing torch: read by
    ATen and MKL at their first use in this process, and inherited by the processes it starts
    (the test suite calls this before anything imports torch)."""
    if platform.machine().lower() in _X86:  # a cap: ATen runs min(AVX2, the CPU's best)
        if os.environ.get("ATEN_CPU_CAPABILITY", "").lower() != _BELOW_AVX2:
            os.environ["ATEN_CPU_CAPABILITY"] = "avx2"
        os.environ["MKL_CBWR"] = "COMPATIBLE"


def portable_note(kernels: dict[str, str | None]) -> str | None:
    """One line when ``cpu_kernels=portable`` could not have its portable kernels here (not
    x86-64, or a torch without MKL), else None: such a run's bytes are not x86-64's."""
    if kernels.get("cpu_kernels") != PORTABLE or kernels.get("mkl") == PORTABLE_MKL:
        return None
    where = platform.machine() or "this CPU"
    why = "no MKL in this torch build" if kernels.get("mkl") is None else "MKL refused it"
    return (
        f"cpu_kernels=portable: no portable x86-64 kernels on {where} ({why}); this run's floats "
        f"are in the tolerance class of docs/reproducibility.md (ATen {kernels.get('aten')})"
    )


def use_kernels(setting: str) -> dict[str, str | None]:
    """Apply ``setting`` to this process and return the kernels in effect (recorded with the run
    and in predict's cache key): ``{"cpu_kernels", "aten", "mkl"}``."""
    import torch

    check_kernels(setting)
    portable = setting == PORTABLE
    if portable:
        portable_environment()
    aten = torch.backends.cpu.get_cpu_capability()
    mkl = _mkl_branch(_CBWR_COMPATIBLE if portable else None)
    if portable and (aten.startswith(_ABOVE_AVX2) or mkl not in (None, PORTABLE_MKL)):
        raise KernelError(
            f"cpu_kernels=portable: this process already runs torch's {aten} kernels (MKL branch "
            f"{mkl}); run the command in a fresh process, or set cpu_kernels=native"
        )
    kernels = {"cpu_kernels": setting, "aten": aten, "mkl": mkl}
    note = portable_note(kernels)
    if note and note not in _SAID:  # once per process, however many commands apply it
        _SAID.add(note)
        print(note, file=sys.stderr, flush=True)
    return kernels
