"""One real small benchmark per test session, shared by the invariance, judge and card tests.

Generated with the documented command (``reasonbench generate benchmark=small ...``) into the
session's base temporary directory, so every test module that asks gets the same directory and
the ~6 s build happens once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.cli.main import main


def small_benchmark(factory: pytest.TempPathFactory) -> Path:
    out = factory.getbasetemp() / "rb-small"
    if not (out / "MANIFEST.json").is_file():
        argv = ["generate", "benchmark=small", f"out_dir={out}", "progress=false",
                "cardinality=false", "workers=1"]  # fmt: skip
        assert main(argv) == 0
    return out


def tiny_cache(factory: pytest.TempPathFactory) -> Path:
    """Where the session's tiny model is cached (built once by the first test that needs it)."""
    return factory.getbasetemp() / "tiny-cache"
