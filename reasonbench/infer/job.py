"""What one ``reasonbench predict`` works on, settled before anything is decoded.

A :class:`PredictJob` names the trained run (read through :class:`TrainedRun`, checked against
the command's method, target, seed and backbone), the rows of the configured splits, the decoding
config, and every row's cache key: sha256 of (backbone identity, adapter hash, prompt, decoding
config), so two runs share a generation only when every input of it is the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from reasonbench.infer.cache import GenerationCache, cache_key, sha256_text
from reasonbench.io import read_split
from reasonbench.models import model_input
from reasonbench.models.backbone import Backbone, resolve_backbone
from reasonbench.models.trained import RunFileError, RunNotFinished, TrainedRun
from reasonbench.models.tuning import get_tuning, weights_hash
from reasonbench.targets import get_target

__all__ = [
    "ROW_COLUMNS",
    "STEP_THREADS",
    "PredictError",
    "PredictJob",
    "decoding_config",
    "plan_job",
]

ROW_COLUMNS = ("id", "split", "stratum", "prompt")
STEP_THREADS = 1  # the one-token steps after the prompt pass (infer/decode.py says why)


class PredictError(RuntimeError):
    """A prediction run that cannot start (no trained run, mismatched configuration)."""


def trained_run(cfg: DictConfig) -> TrainedRun:
    try:
        run = TrainedRun.read(Path(cfg.run_dir))
        wrong = run.mismatch(method=cfg.method, target=cfg.target.name, seed=cfg.seed)
    except RunNotFinished as exc:
        raise PredictError(
            f"{exc}: run 'reasonbench train' with the same model, target, data and seed first"
        ) from None
    except RunFileError as exc:
        raise PredictError(str(exc)) from None
    if wrong:
        raise PredictError(wrong)
    return run


def load_rows(data_dir: Path, splits: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for split in splits:
        try:
            rows += read_split(data_dir, split, ROW_COLUMNS)
        except FileNotFoundError:
            if split.startswith("cardinality"):
                continue  # a benchmark generated without the cardinality experiment
            raise
    if not rows:
        raise PredictError(f"no examples in splits {splits} under {data_dir}")
    return rows


def max_new_tokens(cfg: DictConfig) -> int:
    """``max_new_tokens`` when set, else the target's decoding budget."""
    value = cfg.get("max_new_tokens")
    return int(value) if value is not None else get_target(str(cfg.target.name)).max_new_tokens


def decoding_config(cfg: DictConfig) -> dict[str, Any]:
    """Everything besides backbone, adapter and prompt that decides a generation: part of every
    cache key. The attention kernel is in it: sdpa and flash-attention round bf16 differently,
    which can change a greedy token; so is the CPU thread count, which splits reductions (measured
    with the tiny model: 1 and 2 threads differ in 20 of 130 confidences, by up to 1e-6), and the
    CPU kernels in effect (models/kernels.py; applying them again returns the same)."""
    from reasonbench.models.kernels import use_kernels

    return {
        "strategy": "greedy",
        "target": str(cfg.target.name),
        "max_new_tokens": max_new_tokens(cfg),
        "dtype": str(cfg.model.dtype),
        "attn_implementation": str(cfg.model.attn_implementation),
        "merged_adapter": bool(cfg.merge_adapter),
        "threads": int(cfg.threads),  # the prompt pass's
        "step_threads": STEP_THREADS,
        "cpu_kernels": use_kernels(str(cfg.cpu_kernels)),
        "cue": model_input(""),
    }


@dataclass
class PredictJob:
    cfg: DictConfig
    run: TrainedRun
    backbone: Backbone
    adapter: str  # the adapter's hash
    decoding: dict[str, Any]
    rows: list[dict[str, Any]]
    labels: dict[str, frozenset[str]]  # verdict labels per stratum
    keys: list[str]  # one cache key per row
    cache: GenerationCache

    @property
    def target(self) -> str:
        return str(self.cfg.target.name)

    @property
    def out(self) -> Path:
        return Path(self.cfg.out)

    def todo(self) -> list[int]:
        """Rows whose generation is not cached (the first of several rows with one key)."""
        return sorted({k: i for i, k in enumerate(self.keys) if k not in self.cache}.values())


def plan_job(cfg: DictConfig, rank: int) -> PredictJob:
    from reasonbench.strata.registry import load_stratum

    run = trained_run(cfg)
    data_dir = Path(cfg.data_dir)
    backbone = resolve_backbone(cfg.model, data_dir)
    if backbone.identity != run.backbone_identity:
        raise PredictError(
            f"backbone {backbone.path} differs from the one {cfg.run_dir} was trained on "
            f"({run.backbone_path})"
        )
    adapter = weights_hash(get_tuning(run.tuning), run.adapter_dir)
    decoding = decoding_config(cfg)
    rows = load_rows(data_dir, list(cfg.splits))
    labels = {s: load_stratum(s).labels for s in sorted({r["stratum"] for r in rows})}
    keys = [cache_key(backbone.identity, adapter, model_input(r["prompt"]), decoding) for r in rows]
    group = sha256_text(json.dumps([backbone.identity, adapter, decoding], sort_keys=True))[:16]
    cache = GenerationCache(Path(cfg.cache_dir) / group, rank)
    return PredictJob(cfg, run, backbone, adapter, decoding, rows, labels, keys, cache)
