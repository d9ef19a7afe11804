from __future__ import annotations

from pathlib import Path

import pytest

from tests.invariance.bench import small_benchmark


@pytest.fixture(scope="session")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_benchmark(tmp_path_factory)
