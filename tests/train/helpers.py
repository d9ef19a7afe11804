"""Helpers for the learning tests: composed ``train``/``predict`` configs for the tiny model (the
small benchmark and the tiny-model cache are session fixtures of tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

CONF = Path(__file__).resolve().parents[2] / "conf"


def composed(name: str, overrides: list[str]) -> DictConfig:
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        return compose(name, overrides=overrides)


def tiny_overrides(bench: Path, cache: Path, *extra: str) -> list[str]:
    """The tiny model on the small benchmark, quietly; ``extra`` adds the run's own overrides."""
    return ["model=tiny", f"model.cache_dir={cache}", f"data_dir={bench}", "progress=false", *extra]
