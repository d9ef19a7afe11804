"""Fixtures of the served-model tests; the server itself is a session fixture of
``tests/served.py`` (shared with the certify tests, so one server serves the whole run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.baselines import load_rows


@pytest.fixture(scope="session")
def prompts(small_bench: Path) -> list[str]:
    rows = load_rows(small_bench, with_cardinality=False)["test_locked"]
    return [r["prompt"] for r in rows if r["stratum"] == "organizational"][:4]
