"""A backbone source (docs/extending.md, "A new backbone source"): ``model.source=dir`` loads the
model directory ``model.path`` names, as a user's own store of checkpoints would."""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.models.backbone import BACKBONE_SOURCES, BackboneNotFound


@BACKBONE_SOURCES.register("dir")
def model_dir(model_cfg: Mapping[str, Any], data_dir: Path | None = None) -> Path:
    path = Path(str(model_cfg.get("path")))
    if not (path / "config.json").is_file():
        raise BackboneNotFound(f"model.path={path} is not a model directory (model.source=dir)")
    return path
