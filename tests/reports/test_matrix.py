"""``scripts/reproducibility_matrix.py``'s fast subset: the kernel and branch rows, each in a
fresh process with empty caches, decoding a 16-example slice of the small build's locked test with
the tiny model, compared with the first row's records (the full matrix, every row on the whole
locked test with the committed models, is in docs/reproducibility.md). Every row the CPU can emulate ends in
compare's exit 0: byte-identical where both runs recorded the portable kernels (every MKL row:
the portable branch is MKL's compatible one whatever the machine's MKL would pick), within the
tolerance and named where ATen's build differs (a CPU without AVX2)."""

from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
X86 = platform.machine().lower() in {"x86_64", "amd64"}


def matrix() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "reproducibility_matrix", ROOT / "scripts" / "reproducibility_matrix.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the module's annotations through it
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not X86, reason="the kernel rows emulate x86-64 CPUs")
def test_the_kernel_and_branch_rows_end_in_exit_0(
    small_bench: Path, tiny_cache: Path, tiny_cube_run: Path, tmp_path: Path
) -> None:
    m = matrix()
    names = ("reference", "aten-default", "aten-avx512", "mkl-compatible", "mkl-avx2", "mkl-auto")
    rows = [r for r in m.ROWS if r.name in names]
    run = m.Run("tiny-cube", ("model=tiny", "target=cube", "max_new_tokens=12"), "tiny-cube")
    data = m.sliced(small_bench, 16, tmp_path / "slice")
    # the session's tiny base (its key names ATen's build, so the plain build draws its own)
    results = m.run_matrix(
        rows, tmp_path / "rows", data, tiny_cube_run.parent, [run], full=False,
        base_cache=tiny_cache,
    )  # fmt: skip
    by_name = {r.row.name: r for r in results}
    assert by_name["reference"].code == 0
    emulated = [r for r in results if r.code is not None and r.row.name != "reference"]
    assert len(emulated) >= 3  # aten-default, mkl-compatible, mkl-auto (and what the CPU allows)
    for r in emulated:
        assert r.code == 0, (r.row.name, r.summary)
        assert " agree under the contract " in r.summary
    for name in ("mkl-compatible", "mkl-auto"):
        assert "file(s) byte-identical" in by_name[name].summary
        assert "tolerated" not in by_name[name].summary, by_name[name].summary
    # ATen's plain build: the records fall to the tolerance class, and the summary says why
    assert (
        "x86 class under other kernels: left portable: ATen AVX2, MKL compatible, right "
        "portable: ATen DEFAULT, MKL compatible" in by_name["aten-default"].summary
    )
    for r in results:
        if r.code is None:  # a row this CPU cannot emulate says why
            assert r.summary.startswith("not emulated: ")
