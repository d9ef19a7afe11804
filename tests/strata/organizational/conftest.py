"""Shared fixtures: one loaded stratum, a copy-able data directory, sampled transitions."""

from __future__ import annotations

import random
import shutil
from itertools import combinations
from pathlib import Path

import pytest

from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.loader import DATA_DIR

SUBSETS = [tuple(c) for r in (1, 2, 3) for c in combinations("GNA", r)]


@pytest.fixture(scope="session")
def stratum() -> OrganizationalStratum:
    return OrganizationalStratum()


@pytest.fixture()
def data_copy(tmp_path: Path) -> Path:
    """A private copy of data/clauses that a test may break."""
    target = tmp_path / "clauses"
    shutil.copytree(DATA_DIR, target)
    return target


@pytest.fixture(scope="session")
def transitions(stratum: OrganizationalStratum) -> list[Transition]:
    """A few transitions per clause over random source subsets (fixed seeds)."""
    found = []
    for clause in stratum.units(0):
        rng = random.Random(f"fixture:{clause.unit_id}")
        for _ in range(12):
            transition = stratum.sample_transition(clause, rng, rng.choice(SUBSETS))
            if transition is not None:
                found.append(transition)
    return found
