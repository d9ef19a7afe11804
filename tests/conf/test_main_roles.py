"""The main job's CPU receipt predictors (scripts/run_main.sh, models/) are methods of their own,
like a user's model: no paper role claims them, so every table gives them rows of their own (tests/reports/test_tables.py checks that a method without a role shows)."""

from __future__ import annotations

from pathlib import Path

from omegaconf import OmegaConf

from reasonbench.analysis.methods import roles
from reasonbench.cli.config import compose
from reasonbench.models.trained import TrainedRun

CONF = Path(__file__).resolve().parents[2] / "conf"
MAIN_JOB = Path(__file__).resolve().parents[2] / "scripts" / "run_main.sh"


def test_the_main_jobs_cpu_models_are_methods_without_a_role() -> None:
    """The main job decodes the committed CPU receipt predictors (models/): methods of their
    own, never a paper role, named as the committed runs name them."""
    role_map = OmegaConf.to_container(compose("analyze").methods, resolve=True)
    tables_map = OmegaConf.to_container(compose("tables").methods, resolve=True)
    methods = {t: compose("predict", ["model=small_cpu", f"target={t}"]).method
               for t in ("cube", "direct_receipt")}  # fmt: skip
    assert isinstance(role_map, dict) and tables_map == role_map
    assert not set(methods.values()) & {role.method for role in roles(role_map).values()}
    job = MAIN_JOB.read_text()  # the main job runs exactly these steps
    assert "for target in cube direct_receipt; do" in job
    assert (
        'reasonbench predict model=small_cpu target="$target" run_dir="models/small_cpu-$target/seed0"'
        in job
    )
    for target, method in methods.items():
        run = MAIN_JOB.parents[1] / "models" / f"small_cpu-{target}" / "seed0"
        assert TrainedRun.read(run).method == method
    assert "reasonbench analyze\n" in job
    curves = "curves=[models/small_cpu-cube/seed0,models/small_cpu-direct_receipt/seed0]"
    assert f'reasonbench tables "{curves}"' in job
