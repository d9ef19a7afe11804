"""``cpu_kernels`` (reasonbench/models/kernels.py): the portable kernels are one branch on every
x86-64 CPU (asserted, never skipped on x86-64), the machine's own round otherwise, and a process
that already ran other kernels is refused in one line.

An AMD CPU looks to MKL like a CPU that refuses every branch but ``COMPATIBLE`` and ``AUTO``
(measured on an AMD EPYC), which is why portable asks for ``COMPATIBLE``. That the bytes stay the
same when the libraries see another CPU (ATen's plain build, MKL's own choice, an AMD CPU's
branch) is checked by the machine matrix's kernel rows (tests/reports/test_matrix.py). Each
decode runs in its own process, since the switches are fixed at their first use.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reasonbench.models.kernels import PORTABLE_MKL, check_kernels, portable_note

X86 = platform.machine().lower() in {"x86_64", "amd64"}

# a random-init tiny model (built under the kernels the script applies) decoding 6 prompts
DECODE = """
import json, sys
from reasonbench.models.kernels import use_kernels
kernels = use_kernels(sys.argv[1])
import torch
from pathlib import Path
from reasonbench.infer.decode import greedy_decode
from reasonbench.io import read_split
from reasonbench.models import backbone_at, encode_prompt, load_model, load_tokenizer
from reasonbench.models.tiny import build_tiny
torch.set_num_threads(1)
path = build_tiny(Path(sys.argv[2]), Path(sys.argv[3]))
source = backbone_at(path, "tiny")
tokenizer, model = load_tokenizer(source), load_model(source)
rows = read_split(Path(sys.argv[2]), "dev")[:6]
prompts = [encode_prompt(tokenizer, row["prompt"]) for row in rows]
gens = greedy_decode(model, prompts, tokenizer.pad_token_id, tokenizer.eos_token_id, 8)
print(json.dumps({"kernels": kernels, "logprobs": [list(g.logprobs) for g in gens],
                  "tokens": [list(g.token_ids) for g in gens]}))
"""


def run(
    code: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("ATEN_CPU_CAPABILITY", "MKL_CBWR")}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def decode(setting: str, bench: Path, cache: Path, env: dict[str, str] | None = None) -> dict:
    done = run(DECODE, setting, str(bench), str(cache), env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def native_capability() -> str:
    done = run("import torch; print(torch.backends.cpu.get_cpu_capability())")
    return done.stdout.strip()


def portable_aten() -> str:
    """ATen's capability under portable: AVX2, or the plain build on a CPU below AVX2."""
    native = native_capability()
    return "AVX2" if native.startswith(("AVX2", "AVX512")) else native


def test_the_setting_is_checked_naming_the_key() -> None:
    assert check_kernels("portable") == "portable"
    assert check_kernels("native") == "native"
    with pytest.raises(ValueError, match=r"^cpu_kernels='fast': must be one of"):
        check_kernels("fast")


def test_a_run_without_the_portable_branch_says_so_in_one_line() -> None:
    ours = {"cpu_kernels": "portable", "aten": "AVX2", "mkl": PORTABLE_MKL}
    assert portable_note(ours) is None
    assert portable_note({**ours, "cpu_kernels": "native", "mkl": "auto"}) is None
    for mkl, why in ((None, "no MKL in this torch build"), ("auto", "MKL refused it")):
        line = portable_note({**ours, "aten": "SVE256", "mkl": mkl})
        assert line is not None and "\n" not in line
        assert line.startswith("cpu_kernels=portable: no portable x86-64 kernels on ")
        assert f"({why}); this run's floats are in the tolerance class of" in line
        assert line.endswith("docs/reproducibility.md (ATen SVE256)")


def test_the_line_docs_reproducibility_shows_is_the_one_an_aarch64_machine_prints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("platform.machine", lambda: "aarch64")
    line = portable_note({"cpu_kernels": "portable", "aten": "DEFAULT", "mkl": None})
    page = (Path(__file__).resolve().parents[2] / "docs" / "reproducibility.md").read_text()
    assert line is not None and f"```\n{line}\n```" in page


@pytest.fixture(scope="module")
def portable(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One decode under the portable kernels, in a fresh process, shared by the tests below."""
    return decode("portable", small_bench, tmp_path_factory.mktemp("portable"))


@pytest.mark.skipif(not X86, reason="the portable branch is x86-64's (MKL COMPATIBLE, ATen AVX2)")
def test_portable_kernels_are_one_branch_on_every_x86_cpu(portable: dict[str, Any]) -> None:
    """The record every x86-64 CPU must show (another CPU's view of the libraries, emulated,
    gives the same bytes: tests/reports/test_matrix.py runs those rows)."""
    expected = {"cpu_kernels": "portable", "aten": portable_aten(), "mkl": PORTABLE_MKL}
    assert portable["kernels"] == expected  # never above AVX2, always MKL's compatible branch
    assert portable["logprobs"] and all(portable["logprobs"])


@pytest.mark.skipif(not X86, reason="the portable branch is x86-64's (MKL COMPATIBLE, ATen AVX2)")
def test_native_kernels_take_another_branch_and_round_otherwise(
    portable: dict[str, Any], small_bench: Path, tmp_path: Path
) -> None:
    """The reason the setting exists: MKL's own branch on this CPU is not the compatible one and
    rounds otherwise (any x86-64 CPU with AVX2 runs faster code there)."""
    native = decode("native", small_bench, tmp_path / "b")
    assert native["kernels"]["mkl"] != PORTABLE_MKL
    assert native["kernels"]["aten"] == native_capability()
    assert native["logprobs"] != portable["logprobs"]


@pytest.mark.skipif(not X86, reason="the portable branch is x86-64's (MKL COMPATIBLE, ATen AVX2)")
def test_a_process_that_already_ran_other_kernels_is_refused_in_one_line() -> None:
    """MKL fixes its branch at its first call: a process that multiplied matrices before is
    refused (on every x86-64 CPU: the branch MKL picked itself is never the compatible one)."""
    code = (
        "import torch; a = torch.ones(64, 64); (a @ a).sum()\n"
        "from reasonbench.models.kernels import KernelError, use_kernels\n"
        "try:\n    use_kernels('portable')\nexcept KernelError as exc:\n    print(exc)\n"
    )
    line = run(code).stdout.strip()
    assert line.startswith("cpu_kernels=portable: this process already runs torch's ")
    assert "(MKL branch off)" in line
    assert line.endswith("run the command in a fresh process, or set cpu_kernels=native")
    assert "\n" not in line
