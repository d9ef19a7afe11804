"""The stress suite on a real small benchmark: faithful, certified, deterministic."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reasonbench.invariance.suite import StressSuite, SuiteError, _Builder, build_suite, read_rows
from reasonbench.strata.organizational.rewrites.wording import CERTIFIED, load_rewrites


def digest(suite: StressSuite) -> str:
    return hashlib.sha256(json.dumps(suite.to_json(), sort_keys=True).encode()).hexdigest()


def test_suite_items_rewrites_and_pairs(small_bench: Path) -> None:
    suite = build_suite(small_bench, ("test_locked", "shift_linguistic"))
    rows = {r["id"]: r for r in read_rows(small_bench, ("test_locked", "shift_linguistic"))}
    assert len(suite.items) == len(rows) > 0
    assert {i.family for i in suite.items} >= {"legal"}  # the held-out family is rewritten too
    certified = {v.name for v in load_rewrites().certified()}
    for item in suite.items:
        assert item.base_prompt == rows[item.item_id]["prompt"]
        assert item.rewrites and all(r.prompt != item.base_prompt for r in item.rewrites)
        assert {r.transform for r in item.rewrites} <= set(CERTIFIED)
        assert {r.variant for r in item.rewrites} | set(suite.unchanged) >= certified
        assert item.clear == (not item.reasons)
    assert StressSuite.from_json(json.loads(json.dumps(suite.to_json()))) == suite
    prompts = suite.prompts()
    assert len(prompts) == len(set(prompts))


def test_suite_refuses_a_prompt_it_cannot_reproduce(small_bench: Path) -> None:
    row = read_rows(small_bench, ("test_locked",))[0]
    builder = _Builder(load_rewrites(), seed=0, margin=1)
    builder.item(row)  # the stored row is reproduced
    with pytest.raises(SuiteError, match="does not reproduce the benchmark prompt"):
        builder.item({**row, "prompt": row["prompt"].replace("RULE", "RULES")})
    with pytest.raises(SuiteError, match="not found"):
        build_suite(small_bench, ("no_such_split",))


def test_suite_is_deterministic_across_hash_seeds(small_bench: Path) -> None:
    here = digest(build_suite(small_bench, ("test_locked",), max_items=6))
    code = (
        "import hashlib, json, sys; from pathlib import Path;"
        "from reasonbench.invariance.suite import build_suite;"
        f"s = build_suite(Path({str(small_bench)!r}), ('test_locked',), max_items=6);"
        "print(hashlib.sha256(json.dumps(s.to_json(), sort_keys=True).encode()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == here
