"""The protocol's rehearsal: every paper role is played by a run of the rehearsal, the small
rehearsal leaves no table cell "not run", and a sweep runs for real through submitit_local."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.cli.config import compose
from reasonbench.rehearsal import (
    SCALES,
    STAND_INS,
    method_of,
    paper_roles,
    rehearsal_roles,
    rehearse,
    role_overrides,
    sweeps,
)
from reasonbench.train.protocol import Sweep


def test_every_paper_role_is_a_rehearsal_run() -> None:
    """The roles come from conf/methods/paper.yaml (not a copy); each names a protocol run, and
    its stand-in names a run of the rehearsal (in both scales)."""
    roles = paper_roles()
    stand_in_roles = rehearsal_roles(roles, STAND_INS)
    assert set(stand_in_roles) == set(roles)
    # roles of no model are surface baselines: the rehearsal's baselines step plays them
    baselines = set(compose("baselines").make)
    for scale in SCALES.values():
        methods = set(baselines)
        for sweep in sweeps(scale, split=False):
            # seeds share a method: one seed of each sweep's model x target x data
            for run in Sweep(sweep.models, sweep.targets, sweep.data, sweep.seeds[:1]).runs():
                methods.add(compose("train", overrides=run.overrides().split()).method)
        missing = {r: m for r, m in stand_in_roles.items() if method_of(m) not in methods}
        assert not missing, f"roles no rehearsal run plays: {missing}"
    assert rehearsal_roles({"r": "qwen3_0.6b-cube-permaug", "b": "tfidf"}, STAND_INS) == {
        "r": "tiny_0.6b-cube-permaug",
        "b": "tfidf",
    }
    # the analysis' role map form: a mapping with method, model, target, data
    role = {"method": "qwen3_1.7b-cube", "model": "qwen3_1.7b", "target": "cube", "data": "paper"}
    mapped = rehearsal_roles({"cube": role, "majority": {"method": "majority", "model": None}},
                             STAND_INS)  # fmt: skip
    assert mapped["cube"] == {**role, "method": "tiny_1.7b-cube", "model": "tiny_1.7b"}
    assert role_overrides(mapped) == [
        "methods.cube.method=tiny_1.7b-cube", "methods.cube.model=tiny_1.7b",
        "methods.majority.method=majority",
    ]  # fmt: skip


def test_full_rehearsal_is_the_whole_protocol() -> None:
    from reasonbench.train.protocol import paper_runs

    runs = [r for s in sweeps(SCALES["full"], split=False) for r in s.runs()]
    assert len(runs) == len(paper_runs()) == 56
    assert [(r.target, r.data, r.seed) for r in runs] == [
        (r.target, r.data, r.seed) for r in paper_runs()
    ]
    assert {r.model for r in runs} == set(STAND_INS.values())
    split = [r for s in sweeps(SCALES["full"], split=True) for r in s.runs()]
    assert sorted(split, key=repr) == sorted(runs, key=repr)


def test_small_rehearsal_leaves_no_cell_not_run(small_bench: Path, tmp_path: Path) -> None:
    """Every protocol sweep (one seed, two steps), predictions on every split, baselines,
    analyze and tables: no table cell may read "not run"."""
    summary = rehearse(tmp_path / "rehearsal", SCALES["small"], quiet=True, data=small_bench)
    assert summary["runs"] == 12 and summary["not_run_cells"] == []
    assert (tmp_path / "rehearsal" / "tables" / "README.md").is_file()


def test_a_sweep_runs_through_submitit_local(
    small_bench: Path, tiny_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep's job runs as a submitit job (its own process) and computes exactly what the same
    run trained in this process does, although the job's environment asks for another thread
    count: the run sets its own ``threads`` (issue 29: the job trained with the machine's default
    2 threads, this process with 1, and the adapters differed on another CPU). The run is the
    tiny model's ``direct_receipt``, which 3 threads round differently here (measured)."""
    from reasonbench.cli.main import main
    from reasonbench.train import train
    from tests.train.helpers import composed, tiny_overrides
    from tests.train.test_threads import ENVIRONMENT

    common = tiny_overrides(
        small_bench, tiny_cache, "model=tiny", "target=direct_receipt",
        "optim.max_steps=2", "optim.batch_size=4", "save_every=2",
    )  # fmt: skip
    jobs = tmp_path / "jobs"
    argv = ["train", "-m", "seed=1", *common, f"out_dir={jobs}/seed${{seed}}",
            "hydra/launcher=submitit_local", f"hydra.sweep.dir={tmp_path / 'sweep'}"]  # fmt: skip
    for name, value in ENVIRONMENT.items():  # the job inherits this process's environment
        monkeypatch.setenv(name, value)
    assert main(argv) == 0
    job = json.loads((jobs / "seed1" / "RUN.json").read_text())
    (log,) = (tmp_path / "sweep").rglob("*_log.out")  # the job's own process wrote its log
    assert "tiny-direct_receipt seed 1: trained 2 steps" in log.read_text()
    here = train(composed("train", [*common, "seed=1", f"out_dir={tmp_path / 'here'}"]))
    assert job["adapter_sha256"] == here["adapter_sha256"]
    assert job["threads"] == here["threads"] == 1


@pytest.mark.parametrize("scale", sorted(SCALES))
def test_scales_are_real_runs(scale: str) -> None:
    s = SCALES[scale]
    assert s.steps >= 2  # step 1 has learning rate 0 (warmup): the adapter must move
    assert s.max_new_tokens >= 1 and s.batch_size >= 1
