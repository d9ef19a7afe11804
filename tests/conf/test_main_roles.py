"""The main job's tiny model (scripts/run_main.sh) is a method of its own, like a user's model:
its train and predict steps write one method, no paper role claims it, so every table gives it
rows of its own (tests/reports/test_tables.py checks that a method without a role shows)."""

from __future__ import annotations

from pathlib import Path

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from reasonbench.analysis.methods import roles

CONF = Path(__file__).resolve().parents[2] / "conf"
MAIN_JOB = Path(__file__).resolve().parents[2] / "scripts" / "run_main.sh"


def test_the_main_jobs_tiny_model_is_a_method_without_a_role() -> None:
    tiny = ["model=tiny", "target=direct_receipt"]
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        role_map = OmegaConf.to_container(compose("analyze").methods, resolve=True)
        tables_map = OmegaConf.to_container(compose("tables").methods, resolve=True)
        trained = compose("train", tiny).method
        predicted = compose("predict", [*tiny, "splits=[calibration,test_locked]"])
    assert isinstance(role_map, dict) and tables_map == role_map
    assert trained not in {role.method for role in roles(role_map).values()}
    assert predicted.method == trained and list(predicted.splits) == ["calibration", "test_locked"]
    job = MAIN_JOB.read_text()  # the main job runs exactly these steps
    assert f"reasonbench train {' '.join(tiny)}" in job
    assert (
        f"reasonbench predict {' '.join(tiny)}" in job
        and '"splits=[calibration,test_locked]"' in job
    )
    assert "reasonbench analyze\n" in job and "reasonbench tables\n" in job
