"""Every config composes, and every benchmark config validates as a spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from omegaconf import OmegaConf

from reasonbench.assembly import spec_from_config
from reasonbench.cli.config import compose

CONF = Path(__file__).resolve().parents[2] / "conf"
BENCHMARKS = sorted(p.stem for p in (CONF / "benchmark").glob("*.yaml"))


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_benchmark_configs_validate(benchmark: str) -> None:
    cfg = compose("generate", overrides=[f"benchmark={benchmark}"])
    data: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
    spec = spec_from_config(data)
    assert spec.total_cases > 0 and spec.quotas.changed <= spec.total_cases


def test_paper_config_has_paper_quotas() -> None:
    cfg = compose("generate")
    spec = spec_from_config(OmegaConf.to_container(cfg.benchmark, resolve=True))  # type: ignore[arg-type]
    assert spec.total_cases == 19_520
    assert (spec.quotas.changed, spec.quotas.ambiguous) == (10_888, 3_470)
    assert sum(a.cases for a in spec.splits["test_locked"].values()) == 2_400
    assert spec.splits["test_locked"]["organizational"].units == 6
    assert spec.splits["test_locked"]["logical"].units == 96
    assert spec.units_needed("organizational") == 45 and spec.units_needed("logical") == 800


@pytest.mark.parametrize("name", sorted(p.stem for p in CONF.glob("*.yaml")))
def test_top_level_configs_compose(name: str) -> None:
    cfg = compose(name)
    assert cfg is not None


# --- learning: train / predict groups, sweeps and the SLURM launcher -----------------------------

GROUPS = ("model", "target", "lora", "optim", "data")


@pytest.mark.parametrize(
    ("group", "option"),
    [(g, p.stem) for g in GROUPS for p in sorted((CONF / g).glob("*.yaml"))],
)
def test_learning_groups_compose(group: str, option: str) -> None:
    cfg = compose("train", overrides=[f"{group}={option}"])
    assert OmegaConf.to_container(cfg, resolve=True)
    if group in ("model", "target", "data"):
        predict = compose("predict", overrides=[f"{group}={option}"])
        assert predict.run_dir == cfg.out_dir  # predict finds the run train wrote


def test_paper_sweep_composes_with_distinct_runs() -> None:
    from reasonbench.train.protocol import paper_runs

    runs = paper_runs()
    assert len(runs) == 56  # 2 backbones x 4 targets x 5 seeds + 2 x 3 permaug + 2 x 5 cardinality
    combos = {(r.model, r.target, r.data): r for r in runs}  # seeds differ only in `seed`
    method_of = {}
    for key, run in combos.items():
        cfg = compose("train", overrides=run.overrides().split())
        assert cfg.out_dir == f"runs/{cfg.method}/seed{run.seed}"
        if run.target == "cube":  # predict composes the same groups (checked per group above)
            predict = compose("predict", overrides=run.overrides().split())
            assert predict.run_dir == cfg.out_dir and predict.method == cfg.method
        method_of[key] = cfg.method
    roles = compose("analyze").methods
    methods = set(method_of.values())
    assert len(methods) == len(combos)
    assert len({(method_of[(r.model, r.target, r.data)], r.seed) for r in runs}) == len(runs)
    for role in OmegaConf.to_container(roles, resolve=True).values():  # type: ignore[union-attr]
        if role["model"] is None:  # a surface baseline: `reasonbench baselines` writes it
            continue
        assert role["method"] in methods, f"no run of the protocol writes method {role['method']!r}"


def test_slurm_launcher_config() -> None:
    """hydra-submitit-launcher is a pinned dependency: the SLURM launcher composes for real."""
    path = CONF / "hydra" / "launcher" / "slurm.yaml"
    data = OmegaConf.load(path)
    assert data.defaults == ["submitit_slurm"] and data.gpus_per_node == 1
    cfg = compose("train", overrides=["hydra/launcher=slurm"], return_hydra_config=True)
    local = compose(
        "predict", overrides=["hydra/launcher=submitit_local"], return_hydra_config=True
    )
    launcher = cfg.hydra.launcher
    assert launcher._target_.endswith("submitit_launcher.SlurmLauncher")
    assert (launcher.gpus_per_node, launcher.tasks_per_node, launcher.timeout_min) == (1, 1, 360)
    assert launcher.name == "reasonbench" and launcher.array_parallelism == 20
    assert local.hydra.launcher._target_.endswith("submitit_launcher.LocalLauncher")


def test_sweeps_list_the_runs() -> None:
    from reasonbench.train.protocol import paper_runs, protocol

    assert [r for s in protocol() for r in s.runs()] == paper_runs()
    cardinality = [r for r in paper_runs() if r.data == "cardinality"]
    assert {r.target for r in cardinality} == {"direct_receipt", "cube"}  # both arms
    assert all(
        len([r for r in cardinality if r.target == t]) == 5 for t in ("direct_receipt", "cube")
    )


@pytest.mark.parametrize("judge", sorted(p.stem for p in (CONF / "judge").glob("*.yaml")))
def test_judge_configs_compose_with_registered_factories(judge: str) -> None:
    from reasonbench.judges import registered_judges

    cfg = compose("judge_card", overrides=[f"judge={judge}"])
    if judge == "custom":  # your own factory, named on the command line (docs/extending.md)
        assert OmegaConf.is_missing(cfg.judge, "factory") and cfg.judge.args == {}
        return
    assert cfg.judge.factory in registered_judges()
    assert cfg.judge.name and "args" in cfg.judge
