"""Every stratum doc carries fully worked examples; they are re-executed from the doc's own text.

A block opened by ```` ```json worked-example ```` holds complete states (nothing elided) and
what the doc says about them: a case (``old``, ``new``, ``context``) with its cube, receipt,
traces and rationale, or a single ``state`` with its trace. Each stated field is compared with
fresh execution; the agentic blocks also state every cell's decision quantities.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from reasonbench.are.model import decision_label
from reasonbench.core.cube import execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.core.sources import cell_key, cell_order
from reasonbench.core.state import hybrid
from reasonbench.strata.base import Stratum
from reasonbench.strata.registry import load_stratum
from reasonbench.targets.serialize import rationale_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "strata"
BLOCK = re.compile(r"^```json worked-example\n(.*?)^```$", re.DOTALL | re.MULTILINE)
PAGES = ("organizational", "logical", "agentic")


def blocks(page: str) -> list[dict[str, Any]]:
    return [json.loads(m) for m in BLOCK.findall((DOCS / f"{page}.md").read_text("utf-8"))]


@pytest.fixture(scope="module")
def strata() -> dict[str, Stratum]:
    return {name: load_stratum(name) for name in PAGES}


@pytest.mark.parametrize("page", PAGES)
def test_every_page_has_a_complete_case(page: str) -> None:
    cases = [b for b in blocks(page) if "old" in b]
    assert cases, f"docs/strata/{page}.md has no worked-example case block"
    for case in cases:
        assert case["stratum"] == page
        assert {"cube", "receipt", "traces", "rationale"} <= set(case)
        assert "..." not in json.dumps(case) and "…" not in json.dumps(case)  # nothing elided


@pytest.mark.parametrize("page", PAGES)
def test_worked_examples_reexecute(page: str, strata: dict[str, Stratum]) -> None:
    stratum = strata[page]
    for block in blocks(page):
        context = block.get("context", {})
        if "state" in block:
            state = stratum.state_from_json(block["state"])
            assert stratum.trace(state, context) == block["trace"]
            if "verdict" in block:
                assert stratum.adjudicator(context).adjudicate(state) == block["verdict"]
            continue
        old = stratum.state_from_json(block["old"])
        new = stratum.state_from_json(block["new"])
        cube = execute_cube(stratum.adjudicator(context), old, new)
        assert cube.cells() == block["cube"]
        receipt = receipt_of(cube)
        assert receipt.family() == block["receipt"]
        traces = [stratum.trace(old, context), stratum.trace(new, context)]
        assert traces == [block["traces"]["old"], block["traces"]["new"]]
        assert rationale_text(*traces) == block["rationale"]
        if "cells" in block:
            check_cells(stratum, context, old, new, block["cells"])


def check_cells(
    stratum: Stratum, context: dict[str, Any], old: Any, new: Any, stated: dict[str, Any]
) -> None:
    """Per cell: the equilibrium decision, Gamma_A, rho (both readings), Ov_s and margins."""
    adjudicator: Any = stratum.adjudicator(context)
    assert sorted(stated) == sorted(cell_key(m, old.sources) for m in cell_order(3))
    for mask in cell_order(3):
        said = stated[cell_key(mask, old.sources)]
        decision = adjudicator.decision(hybrid(old, new, mask))
        assert decision.verdict == said["verdict"]
        assert decision_label(decision.solution.decision) == said["decision"]
        for margin in decision.margins:
            want = said["margins"][margin.name]
            assert _close(margin.value, want["value"]), margin.name
            assert _close(margin.signed, want["signed"]), margin.name
        assert sorted(m.name for m in decision.margins) == sorted(said["margins"])
        assert decision.certified == said["certified"]


def _close(value: float, stated: float | str) -> bool:
    """``value`` as the doc writes it, to 3 decimals (JSON has no infinity: "inf" / "-inf")."""
    if isinstance(stated, str):
        return value == float(stated)
    return abs(value - stated) < 5e-4
