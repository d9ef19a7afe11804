"""``cpu_kernels`` (reasonbench/models/kernels.py): the portable kernels give the same bytes when
the CPU offers less than this machine, the setting is applied and read back, and a process that
already runs other kernels is refused in one line.

Another CPU is emulated by capping the libraries' own dispatch in a fresh process:
``MKL_ENABLE_INSTRUCTIONS=AVX2`` makes MKL see an AVX2-only processor, ``ONEDNN_MAX_CPU_ISA`` does
the same for oneDNN. Each decode runs in its own process, since both switches are fixed at their
first use.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from reasonbench.models.kernels import check_kernels

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


def test_the_setting_is_checked_naming_the_key() -> None:
    assert check_kernels("portable") == "portable"
    assert check_kernels("native") == "native"
    with pytest.raises(ValueError, match=r"^cpu_kernels='fast': must be one of"):
        check_kernels("fast")


@pytest.mark.skipif(not X86, reason="the portable kernels are x86-64's AVX2 build")
def test_portable_kernels_give_the_same_bytes_on_a_cpu_with_less(
    small_bench: Path, tmp_path: Path
) -> None:
    here = decode("portable", small_bench, tmp_path / "a")
    assert here["kernels"]["cpu_kernels"] == "portable"
    assert here["kernels"]["aten"] in ("AVX2", "DEFAULT")  # never above AVX2
    avx2_only = {"MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"}
    there = decode("portable", small_bench, tmp_path / "b", env=avx2_only)
    assert there == here  # the random init, every token and every log-probability
    assert here["logprobs"] and all(here["logprobs"])


@pytest.mark.skipif(not X86, reason="the portable kernels are x86-64's AVX2 build")
def test_native_kernels_on_an_avx512_machine_round_otherwise(
    small_bench: Path, tmp_path: Path
) -> None:
    """The reason the setting exists: without it, this machine's own kernels give other floats
    (a machine without AVX-512 runs the AVX2 build natively, and there is nothing to show)."""
    if not native_capability().startswith("AVX512"):
        pytest.skip("this CPU's best kernels are the portable ones")
    portable = decode("portable", small_bench, tmp_path / "a")
    native = decode("native", small_bench, tmp_path / "b")
    assert native["kernels"]["aten"].startswith("AVX512")
    assert native["logprobs"] != portable["logprobs"]


@pytest.mark.skipif(not X86, reason="the portable kernels are x86-64's AVX2 build")
def test_a_process_that_already_ran_other_kernels_is_refused_in_one_line() -> None:
    if not native_capability().startswith("AVX512"):
        pytest.skip("this CPU's own kernels are the portable ones: nothing to refuse")
    code = (
        "import torch; torch.ones(64).exp()\n"
        "from reasonbench.models.kernels import KernelError, use_kernels\n"
        "try:\n    use_kernels('portable')\nexcept KernelError as exc:\n    print(exc)\n"
    )
    line = run(code).stdout.strip()
    assert line.startswith("cpu_kernels=portable: this process already runs torch's AVX512")
    assert line.endswith("run the command in a fresh process, or set cpu_kernels=native")
    assert "\n" not in line
