"""TrainedRun: the one reader of RUN.json, with one-line errors naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.models.trained import RunFileError, RunNotFinished, TrainedRun

SUMMARY = {
    "method": "tiny-cube",
    "seed": 0,
    "target": "cube",
    "backbone": {"name": "tiny", "path": "/models/tiny", "identity": "abc"},
}


def test_round_trip_and_fields(tmp_path: Path) -> None:
    assert not TrainedRun.finished(tmp_path)
    TrainedRun.write(tmp_path, SUMMARY)
    run = TrainedRun.read(tmp_path)
    assert TrainedRun.finished(tmp_path)
    assert (run.method, run.seed, run.target) == ("tiny-cube", 0, "cube")
    assert run.backbone_path == Path("/models/tiny") and run.backbone_identity == "abc"
    assert run.adapter_dir == tmp_path / "adapter"
    assert run.mismatch(method="tiny-cube", seed=0) is None
    assert run.mismatch(method="tiny-cube", seed=1) == f"{tmp_path} was trained with seed=0, not 1"


def test_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(RunNotFinished, match="no finished training run at"):
        TrainedRun.read(tmp_path)
    (tmp_path / "RUN.json").write_text("{not json")
    with pytest.raises(RunFileError, match="RUN.json: not a readable run summary"):
        TrainedRun.read(tmp_path)
    (tmp_path / "RUN.json").write_text('{"target": "cube"}')
    with pytest.raises(RunFileError, match=r"RUN.json: no backbone\.path"):
        _ = TrainedRun.read(tmp_path).backbone_path
