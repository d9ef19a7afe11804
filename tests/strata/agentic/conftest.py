"""Shared fixtures for the agentic-stratum tests."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from reasonbench.strata.agentic import AgenticStratum, AgenticUnit
from reasonbench.strata.base import Transition

SUBSETS = [c for r in (1, 2, 3) for c in combinations(("G", "N", "A"), r)]


@pytest.fixture(scope="session")
def stratum() -> AgenticStratum:
    return AgenticStratum()


@pytest.fixture(scope="session")
def units(stratum: AgenticStratum) -> list[AgenticUnit]:
    return stratum.units(0)


@pytest.fixture(scope="session")
def transitions(stratum: AgenticStratum, units: list[AgenticUnit]) -> list[Transition]:
    """Three transitions per sixth unit, every source subset, both families."""
    out = []
    for i, unit in enumerate(units[::6]):
        for d in range(3):
            rng = random.Random(f"fixture:{i}:{d}")
            t = stratum.sample_transition(unit, rng, SUBSETS[(i + d) % len(SUBSETS)])
            assert t is not None
            out.append(t)
    return out
