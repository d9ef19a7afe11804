"""Session fixtures of the learning tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.train.helpers import small_benchmark


@pytest.fixture(scope="session")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_benchmark(tmp_path_factory)


@pytest.fixture(scope="session")
def tiny_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tiny-cache")


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    # the CI machine has 2 cores shared with other jobs; one thread per process avoids OpenMP
    # spin-waiting against them, which slows the tiny model by an order of magnitude
    torch.set_num_threads(1)
