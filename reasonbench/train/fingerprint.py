"""A training run's identity: the configuration fields that decide what it computes.

``fingerprint.json`` holds them; a rerun in the same ``out_dir`` must have the same ones (it then
resumes), otherwise it is refused, naming the fields that differ. Settings that only change how a
run executes (paths, progress, checkpoint cadence, batching, kernels, memory knobs) are left out,
so they may change between a kill and the rerun. ``threads`` and ``cpu_kernels`` stay in: another
CPU thread count or kernel build rounds the adapter differently (measured), and a run resumed
under another would match neither uninterrupted run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.models.trained import RUN_FILE

__all__ = [
    "RUNTIME_KEYS",
    "RUNTIME_MODEL_KEYS",
    "RUN_MARKERS",
    "RUN_WHAT",
    "RunConflict",
    "check_same_run",
    "fingerprint_fields",
    "fingerprint_sha",
]

# Settings that change how a run executes, not what it computes: never part of the fingerprint.
RUNTIME_KEYS = (
    "data_dir",
    "out_dir",
    "progress",
    "save_every",
    "keep_checkpoints",
    "log_every",
    "stop_after_steps",
    "device",
    "batching",  # the batching mode and micro-batch size change memory layout, not the gradient
    "overwrite",
    "eval",  # the learning curve decodes in inference mode: it changes no weight (infer/curve.py)
)
RUNTIME_MODEL_KEYS = (
    "path",
    "hf_cache",
    "cache_dir",
    "revision",
    "predict_batch_size",
    "micro_batch_tokens",
    "gradient_checkpointing",
    "attn_implementation",
)


# what makes a directory a training run of ours: train may write into it (and resume it)
RUN_MARKERS = ("fingerprint.json", RUN_FILE)
RUN_WHAT = "a reasonbench training run (no fingerprint.json)"


class RunConflict(RuntimeError):
    """``out_dir`` holds a run with another configuration."""


def fingerprint_fields(cfg: Mapping[str, Any], manifest_sha: str) -> dict[str, Any]:
    fields = {k: v for k, v in cfg.items() if k not in RUNTIME_KEYS}
    fields["model"] = {k: v for k, v in cfg["model"].items() if k not in RUNTIME_MODEL_KEYS}
    fields["data_manifest_sha256"] = manifest_sha
    return fields


def fingerprint_sha(fields: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def check_same_run(out_dir: Path, fields: Mapping[str, Any]) -> None:
    path = out_dir / "fingerprint.json"
    if not path.is_file():
        return
    stored = json.loads(path.read_text())["fields"]
    if stored == json.loads(json.dumps(fields)):
        return
    differ = sorted(k for k in set(stored) | set(fields) if stored.get(k) != fields.get(k))
    raise RunConflict(
        f"{out_dir} holds a run with another configuration (differs in: {', '.join(differ)}); "
        "use another out_dir, or delete it to start over"
    )
