"""The main job's role map (conf/methods/main.yaml): every paper role unchanged, plus the tiny
model as the run the main job's `train`/`predict` steps write (scripts/run_main.sh)."""

from __future__ import annotations

from pathlib import Path

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

CONF = Path(__file__).resolve().parents[2] / "conf"
MAIN_JOB = Path(__file__).resolve().parents[2] / "scripts" / "run_main.sh"


def test_main_role_map_is_paper_plus_the_tiny_model() -> None:
    tiny = ["model=tiny", "target=direct_receipt"]
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        paper = OmegaConf.to_container(compose("analyze").methods, resolve=True)
        main = OmegaConf.to_container(compose("analyze", ["methods=main"]).methods, resolve=True)
        tables = OmegaConf.to_container(compose("tables", ["methods=main"]).methods, resolve=True)
        trained = compose("train", tiny).method
        predicted = compose("predict", [*tiny, "splits=[calibration,test_locked]"])
    assert isinstance(paper, dict) and isinstance(main, dict)
    assert {k: v for k, v in main.items() if k != "tiny"} == paper and tables == main
    assert main["tiny"] == {"method": trained, "target": "direct_receipt", "model": "tiny",
                            "data": "paper"}  # fmt: skip
    assert predicted.method == trained and list(predicted.splits) == ["calibration", "test_locked"]
    job = MAIN_JOB.read_text()  # the main job runs exactly these steps, and analyzes with main
    assert " ".join(tiny) in job and "reasonbench analyze methods=main" in job
    assert "reasonbench tables methods=main" in job and '"splits=[calibration,test_locked]"' in job
