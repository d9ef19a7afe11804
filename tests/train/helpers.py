"""Helpers for the learning tests: composed ``train``/``predict`` configs for the tiny model (the
small benchmark and the tiny-model cache are session fixtures of tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from omegaconf import DictConfig

from reasonbench.cli.config import compose

CONF = Path(__file__).resolve().parents[2] / "conf"


def composed(name: str, overrides: list[str]) -> DictConfig:
    return compose(name, overrides=overrides)


def tiny_overrides(bench: Path, cache: Path, *extra: str) -> list[str]:
    """The tiny model on the small benchmark, quietly; ``extra`` adds the run's own overrides."""
    return ["model=tiny", f"model.cache_dir={cache}", f"data_dir={bench}", "progress=false", *extra]
