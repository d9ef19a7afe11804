"""Shared fixtures: the small benchmark spec wired to toy strata."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from omegaconf import OmegaConf

from reasonbench.assembly.spec import BenchmarkSpec, spec_from_config
from reasonbench.cli.config import compose
from reasonbench.strata.toy import ToyStratum

CONF = Path(__file__).resolve().parents[2] / "conf"


def small_config() -> dict[str, Any]:
    cfg = compose("generate", overrides=["benchmark=small"])
    data: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
    data["shifts"]["held_out_operators"] = {"organizational": ["n_exempt"], "logical": ["n_exempt"]}
    data["shifts"]["held_out_family"] = {"organizational": "held", "logical": "held"}
    data["quotas"]["min_sizes"] = [1, 2]  # the toy rarely needs all three sources
    return dict(data)


@pytest.fixture
def toy_config() -> dict[str, Any]:
    return small_config()


@pytest.fixture
def toy_spec() -> BenchmarkSpec:
    return spec_from_config(small_config())


@pytest.fixture
def toy_strata() -> dict[str, ToyStratum]:
    return {
        "organizational": ToyStratum("organizational", 20),
        "logical": ToyStratum("logical", 40, with_depth=True),
    }
