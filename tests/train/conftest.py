"""Session fixtures of the learning tests."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    # the CI machine has 2 cores shared with other jobs; one thread per process avoids OpenMP
    # spin-waiting against them, which slows the tiny model by an order of magnitude
    torch.set_num_threads(1)
