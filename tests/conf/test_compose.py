"""Every config composes, and every benchmark config validates as a spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from reasonbench.assembly import spec_from_config

CONF = Path(__file__).resolve().parents[2] / "conf"
BENCHMARKS = sorted(p.stem for p in (CONF / "benchmark").glob("*.yaml"))


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_benchmark_configs_validate(benchmark: str) -> None:
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        cfg = compose("generate", overrides=[f"benchmark={benchmark}"])
    data: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
    spec = spec_from_config(data)
    assert spec.total_cases > 0 and spec.changed <= spec.total_cases


def test_paper_config_has_paper_quotas() -> None:
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        cfg = compose("generate")
    spec = spec_from_config(OmegaConf.to_container(cfg.benchmark, resolve=True))  # type: ignore[arg-type]
    assert spec.total_cases == 19_520
    assert (spec.changed, spec.ambiguous) == (10_888, 3_470)
    assert sum(a.cases for a in spec.splits["test_locked"].values()) == 2_400
    assert spec.splits["test_locked"]["organizational"].units == 6
    assert spec.splits["test_locked"]["logical"].units == 96
    assert spec.units_needed("organizational") == 45 and spec.units_needed("logical") == 800


@pytest.mark.parametrize("name", sorted(p.stem for p in CONF.glob("*.yaml")))
def test_top_level_configs_compose(name: str) -> None:
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        cfg = compose(name)
    assert cfg is not None
