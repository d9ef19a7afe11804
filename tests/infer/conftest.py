"""One thread per test process, as in tests/train (a shared 2-core machine)."""

from tests.train.conftest import _one_thread

__all__ = ["_one_thread"]
