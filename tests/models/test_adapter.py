"""An adapter's hash names its content: the same config and weights hash alike whatever
``PYTHONHASHSEED`` the saving process had (peft writes set-valued fields in set order)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reasonbench.models.adapter import (
    ADAPTER_CONFIG,
    ADAPTER_WEIGHTS,
    canonical_config,
    write_canonical_config,
)
from reasonbench.models.tuning import get_tuning, weights_hash

MODULES = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
SAVE = (
    "import sys\n"
    "from peft import LoraConfig\n"
    f"LoraConfig(r=4, lora_alpha=8, target_modules={MODULES!r}, task_type='CAUSAL_LM')"
    ".save_pretrained(sys.argv[1])\n"
)


def adapter_hash(adapter_dir: Path) -> str:
    """The hash every prediction cache key takes of a LoRA run's ``adapter/``."""
    return weights_hash(get_tuning("lora"), adapter_dir)


def saved_under(seeds: list[int], root: Path) -> list[Path]:
    """peft's own save of one LoRA config, once per hash seed (in parallel processes), each with
    the same weights file beside it."""
    dirs = [root / f"seed{s}" for s in seeds]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SAVE, str(d)],
            env={**os.environ, "PYTHONHASHSEED": str(s), "OMP_NUM_THREADS": "1"},
        )
        for s, d in zip(seeds, dirs, strict=True)
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    for d in dirs:
        (d / ADAPTER_WEIGHTS).write_bytes(b"the same weights")
    return dirs


def test_hash_does_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    a, b = saved_under([0, 1], tmp_path)
    raw_a, raw_b = (json.loads((d / ADAPTER_CONFIG).read_text()) for d in (a, b))
    # the defect this guards against: the two files list the modules in different orders
    assert raw_a["target_modules"] != raw_b["target_modules"]
    assert sorted(raw_a["target_modules"]) == sorted(raw_b["target_modules"])
    assert adapter_hash(a) == adapter_hash(b)
    # what a run saves is canonical on disk too: byte-identical files
    for d in (a, b):
        write_canonical_config(d)
    assert (a / ADAPTER_CONFIG).read_bytes() == (b / ADAPTER_CONFIG).read_bytes()
    assert adapter_hash(a) == adapter_hash(b)
    # ... and the hash still names the content: other weights, another hash
    (b / ADAPTER_WEIGHTS).write_bytes(b"other weights")
    assert adapter_hash(a) != adapter_hash(b)


def test_hash_names_the_config(tmp_path: Path) -> None:
    config = {"r": 4, "target_modules": ["v_proj", "q_proj"], "peft_type": "LORA"}
    for name, value in (("one", config), ("two", {**config, "r": 8})):
        (tmp_path / name).mkdir()
        (tmp_path / name / ADAPTER_CONFIG).write_text(json.dumps(value))
        (tmp_path / name / ADAPTER_WEIGHTS).write_bytes(b"w")
    assert adapter_hash(tmp_path / "one") != adapter_hash(tmp_path / "two")
    with pytest.raises(FileNotFoundError, match="trained adapter"):
        adapter_hash(tmp_path)


@given(st.permutations(MODULES), st.sampled_from([None, "all-linear", ["q_proj"]]))
def test_canonical_config_ignores_set_order(order: list[str], exclude: object) -> None:
    one = canonical_config({"target_modules": order, "exclude_modules": exclude, "r": 2})
    two = canonical_config({"target_modules": MODULES, "exclude_modules": exclude, "r": 2})
    assert one == two and one["target_modules"] == sorted(MODULES)
    assert one["exclude_modules"] == exclude  # a regex string or null stays as it is
