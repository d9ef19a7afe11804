"""A finished training run as the rest of the project sees it: the one reader of ``RUN.json``.

``reasonbench train`` writes ``<out_dir>/RUN.json`` (its summary: method, seed, target, backbone,
adapter hash, steps, tokens, ...) once the adapter is saved, and :meth:`TrainedRun.write` is how
it writes it. ``reasonbench predict`` and the LoRA judge read a run through :meth:`TrainedRun.read`
only, so what a run directory must hold is defined here once. It lives below ``train`` and
``infer`` so both import it and neither imports the other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.io import write_json

__all__ = ["RUN_FILE", "RunFileError", "RunNotFinished", "TrainedRun"]

RUN_FILE = "RUN.json"
ADAPTER_DIR = "adapter"


class RunNotFinished(FileNotFoundError):
    """No ``RUN.json``: the directory holds no finished training run."""


class RunFileError(ValueError):
    """A ``RUN.json`` that cannot be read or lacks a field; names the file."""


@dataclass(frozen=True)
class TrainedRun:
    directory: Path
    summary: Mapping[str, Any]

    @staticmethod
    def finished(directory: Path) -> bool:
        return (Path(directory) / RUN_FILE).is_file()

    @classmethod
    def read(cls, directory: Path | str) -> TrainedRun:
        directory = Path(directory)
        path = directory / RUN_FILE
        if not path.is_file():
            raise RunNotFinished(f"no finished training run at {directory} ({path} missing)")
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RunFileError(f"{path}: not a readable run summary ({exc})") from None
        if not isinstance(summary, dict):
            raise RunFileError(f"{path}: not a run summary (a JSON object)")
        return cls(directory, summary)

    @staticmethod
    def write(directory: Path, summary: Mapping[str, Any]) -> None:
        """The last file a finished run writes (atomically): its presence marks the run done."""
        write_json(Path(directory) / RUN_FILE, dict(summary))

    def field(self, *path: str) -> Any:
        value: Any = self.summary
        for key in path:
            if not isinstance(value, Mapping) or key not in value:
                raise RunFileError(f"{self.directory / RUN_FILE}: no {'.'.join(path)}")
            value = value[key]
        return value

    @property
    def method(self) -> str:
        return str(self.field("method"))

    @property
    def seed(self) -> int:
        return int(self.field("seed"))

    @property
    def target(self) -> str:
        return str(self.field("target"))

    @property
    def backbone_path(self) -> Path:
        return Path(str(self.field("backbone", "path")))

    @property
    def backbone_identity(self) -> str:
        return str(self.field("backbone", "identity"))

    @property
    def tuning(self) -> str:
        """How the run trained (``models/tuning.py``); runs from before the key were LoRA."""
        return str(self.summary.get("tuning") or "lora")

    @property
    def adapter_dir(self) -> Path:
        """The trained weights: a LoRA adapter, or the whole model (``tuning: full``)."""
        return self.directory / ADAPTER_DIR

    def mismatch(self, **expected: Any) -> str | None:
        """The first field whose value differs from ``expected`` (``method=..., seed=...``)."""
        for key, want in expected.items():
            have = self.field(key)
            if have != want:
                return f"{self.directory} was trained with {key}={have!r}, not {want!r}"
        return None
