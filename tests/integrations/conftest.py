"""Shared pieces of the harness tests: a scripted model whose answers are decided by the example
(so a run has right, wrong, unparsable and over-long answers and every metric a value), the check
that a harness's metrics equal ``analyze``'s on the same outputs, and the check that what a run
prints is what docs/integrations.md shows (its worked examples are these tests' runs)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from reasonbench.cli.main import main
from reasonbench.integrations.common import TaskSpec, prompt_of, task_rows
from reasonbench.targets import TARGETS

SPLIT = "shift_depth"  # the smallest split of benchmark=small: 30 logical examples
TARGETS_ALL = list(TARGETS)
ROOT = Path(__file__).resolve().parents[2]
PAGE = "docs/integrations.md"
DOC = (ROOT / PAGE).read_text(encoding="utf-8")


def scripted_answer(rows: list[dict[str, Any]], i: int) -> str:
    """Five kinds of answer, by the example's position in its split."""
    n = len(rows)
    kind = i % 5
    if kind == 0:
        return str(rows[i]["answer"])  # right
    if kind == 1:
        return str(rows[(i + 1) % n]["answer"])  # well-formed, often wrong
    if kind == 2:
        return f"{rows[i]['answer']}\nThat is all."  # right, then a line the trim cuts
    if kind == 3:
        return "I cannot tell."  # unparsable
    return f"<think>let me see</think>\n{rows[(i + 3) % n]['answer']}"  # reasoning, then an answer


class Script:
    """The scripted answers of one target's rows, looked up by example id or by prompt."""

    def __init__(self, bench: Path, target: str, split: str = SPLIT) -> None:
        self.rows = task_rows(TaskSpec(bench, split, target))
        self.by_id = {r["id"]: scripted_answer(self.rows, i) for i, r in enumerate(self.rows)}
        self.by_prompt = {
            prompt_of(r["prompt"]): self.by_id[r["id"]] for r in reversed(self.rows)
        }  # a prompt asked twice gets its first example's answer


def analyzed(bench: Path, preds: Path, out: Path) -> dict[str, Any]:
    """``reasonbench analyze`` of ``preds``, as the worked examples run it: method -> split ->
    metric -> value."""
    argv = ["analyze", f"data_dir={bench}", f"predictions_dir={preds}", f"out={out}",
            "comparisons=[]", "replicates=200", "progress=false"]  # fmt: skip
    assert main(argv) == 0
    methods = json.loads(out.read_text())["methods"]
    return {
        name: {
            split: {k: v["value"] for k, v in summary["metrics"].items()}
            for split, summary in entry["seeds"]["0"]["splits"].items()
        }
        for name, entry in methods.items()
    }


def assert_same(harness: dict[str, float | None], ours: dict[str, float | None]) -> None:
    """Every metric the harness reported equals analyze's (NaN there is None here: 0/0)."""
    assert harness and set(harness) == set(ours)
    for name, value in harness.items():
        mine = ours[name]
        if value is None or (isinstance(value, float) and math.isnan(value)):
            assert mine is None, name
        else:
            assert mine == pytest.approx(value, rel=1e-12, abs=1e-12), name


def as_in_docs(text: str, names: Mapping[Path, str]) -> list[str]:
    """The lines of ``text`` with the test's paths written as the worked example names them."""
    for path, name in sorted(names.items(), key=lambda item: -len(str(item[0]))):
        text = text.replace(str(path), name)
    return text.splitlines()


def not_in_docs(lines: Iterable[str]) -> list[str]:
    """The lines docs/integrations.md does not show (each must be a whole line there)."""
    shown = set(DOC.splitlines())
    return [line for line in lines if line not in shown]


def table_rows(table: Path, method_prefix: str) -> list[str]:
    """A Markdown table's title and header and its rows of the harness's methods."""
    lines = table.read_text(encoding="utf-8").splitlines()
    return [*lines[:4], *(r for r in lines if r.startswith(f"| {method_prefix}"))]
