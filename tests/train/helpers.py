"""Helpers for the learning tests: the real small benchmark (generated once per session) and
composed ``train``/``predict`` configs for the tiny model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import DictConfig, OmegaConf

CONF = Path(__file__).resolve().parents[2] / "conf"


def small_benchmark(factory: pytest.TempPathFactory) -> Path:
    """``reasonbench generate benchmark=small`` (with the cardinality splits), once per session:
    every fixture calling this shares the directory under the session's base temp."""
    from reasonbench.assembly import generate, spec_from_config

    out = factory.getbasetemp() / "rb-small"
    if not (out / "MANIFEST.json").is_file():
        with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
            cfg = compose("generate", overrides=["benchmark=small"])
        spec: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
        generate(spec_from_config(spec), out, workers=1, progress=False, cardinality=True)
    return out


def composed(name: str, overrides: list[str]) -> DictConfig:
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        return compose(name, overrides=overrides)


def tiny_overrides(bench: Path, cache: Path, *extra: str) -> list[str]:
    """The tiny model on the small benchmark, quietly; ``extra`` adds the run's own overrides."""
    return ["model=tiny", f"model.cache_dir={cache}", f"data_dir={bench}", "progress=false", *extra]
