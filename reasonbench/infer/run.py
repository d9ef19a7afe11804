"""``reasonbench predict``: a trained run's greedy predictions on benchmark splits.

Generations come from the cache when present (``cache.py``); only the misses are decoded, longest
prompts first in batches of ``batch_size`` (similar lengths, little padding), each batch cached
and its records appended to ``<out>.rank<i>.partial`` as soon as it is done. The model is not
even loaded when everything is cached. At the end the main process writes ``<out>`` atomically in
benchmark order (a rerun from the cache writes identical bytes) and ``<out stem>.meta.json`` with
the decoding config, batch size and counts.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from reasonbench.infer.cache import GenerationCache, cache_key, sha256_text
from reasonbench.infer.confidence import SOURCES, cache_entry
from reasonbench.infer.decode import greedy_decode
from reasonbench.infer.records import make_record
from reasonbench.io import OutputDir, read_split
from reasonbench.models import encode_prompt, load_model, load_tokenizer, model_input
from reasonbench.models.backbone import Backbone, resolve_backbone
from reasonbench.predictions.io import JsonlWriter
from reasonbench.progress import Progress
from reasonbench.targets import get_target
from reasonbench.train.lora import adapter_hash
from reasonbench.train.run import use_cpu

ROW_COLUMNS = ("id", "split", "stratum", "prompt")


class PredictError(RuntimeError):
    """A prediction run that cannot start (no trained run, mismatched configuration)."""


def finished_run(cfg: DictConfig) -> dict[str, Any]:
    run_dir = Path(cfg.run_dir)
    path = run_dir / "RUN.json"
    if not path.is_file():
        raise PredictError(
            f"no finished training run at {run_dir} ({path} missing): run 'reasonbench train' "
            "with the same model, target, data and seed first"
        )
    run: dict[str, Any] = json.loads(path.read_text())
    for key, expected in (("method", cfg.method), ("target", cfg.target.name), ("seed", cfg.seed)):
        if run[key] != expected:
            raise PredictError(f"{run_dir} was trained with {key}={run[key]!r}, not {expected!r}")
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
    which can change a greedy token."""
    return {
        "strategy": "greedy",
        "target": str(cfg.target.name),
        "max_new_tokens": max_new_tokens(cfg),
        "dtype": str(cfg.model.dtype),
        "attn_implementation": str(cfg.model.attn_implementation),
        "merged_adapter": bool(cfg.merge_adapter),
        "cue": model_input(""),
    }


def load_predictor(cfg: DictConfig, backbone: Backbone, device: Any) -> Any:
    from peft import PeftModel

    model = load_model(backbone, str(cfg.model.dtype), str(cfg.model.attn_implementation))
    model = PeftModel.from_pretrained(model, Path(cfg.run_dir) / "adapter", is_trainable=False)
    if cfg.merge_adapter:  # one matmul per projection instead of three: faster decoding
        model = model.merge_and_unload()
    return model.to(device).eval()


def predict(cfg: DictConfig) -> dict[str, Any]:
    from accelerate import PartialState
    from transformers import set_seed

    from reasonbench.strata.registry import load_stratum

    if cfg.confidence not in SOURCES:
        raise PredictError(f"confidence must be one of {list(SOURCES)}, got {cfg.confidence!r}")
    set_seed(int(cfg.seed))
    run = finished_run(cfg)
    data_dir, out = Path(cfg.data_dir), Path(cfg.out)
    state = PartialState(cpu=use_cpu(cfg))
    if state.is_main_process:  # refuse a foreign output file before decoding anything
        directory = OutputDir(out.parent, "predict", bool(cfg.get("overwrite", False)))
        directory.check(out.name)
        directory.check(out.name.removesuffix(".jsonl") + ".meta.json")
    backbone = resolve_backbone(cfg.model, data_dir)
    if backbone.identity != run["backbone"]["identity"]:
        raise PredictError(
            f"backbone {backbone.path} differs from the one {cfg.run_dir} was trained on "
            f"({run['backbone']['path']})"
        )
    adapter = adapter_hash(Path(cfg.run_dir) / "adapter")
    target = str(cfg.target.name)
    decoding = decoding_config(cfg)
    rows = load_rows(data_dir, list(cfg.splits))
    labels = {s: load_stratum(s).labels for s in sorted({r["stratum"] for r in rows})}
    keys = [cache_key(backbone.identity, adapter, model_input(r["prompt"]), decoding) for r in rows]
    group = sha256_text(json.dumps([backbone.identity, adapter, decoding], sort_keys=True))[:16]
    cache = GenerationCache(Path(cfg.cache_dir) / group, state.process_index)
    todo = sorted({k: i for i, k in enumerate(keys) if k not in cache}.values())
    mine = todo[state.process_index :: state.num_processes]
    partial = out.with_name(f"{out.name}.rank{state.process_index}.partial")
    started = time.perf_counter()
    if mine:
        tokenizer = load_tokenizer(backbone)
        model = load_predictor(cfg, backbone, state.device)
        encoded = {i: encode_prompt(tokenizer, rows[i]["prompt"]) for i in mine}
        order = sorted(mine, key=lambda i: (-len(encoded[i]), i))
        size = int(cfg.batch_size)
        bar = Progress(len(order), "predict", "examples", bool(cfg.progress))
        partial.unlink(missing_ok=True)
        with JsonlWriter(partial) as writer:
            for start in range(0, len(order), size):
                batch = order[start : start + size]
                gens = greedy_decode(
                    model,
                    [encoded[i] for i in batch],
                    int(tokenizer.pad_token_id),
                    int(tokenizer.eos_token_id),
                    max_new_tokens(cfg),
                    state.device,
                )
                entries = [
                    cache_entry(
                        keys[i], g, tokenizer, target, labels[rows[i]["stratum"]], len(batch)
                    )
                    for i, g in zip(batch, gens, strict=True)
                ]
                cache.put(entries)
                for i, entry in zip(batch, entries, strict=True):
                    labels_i = labels[rows[i]["stratum"]]
                    writer.write(
                        make_record(
                            rows[i],
                            run["method"],
                            run["seed"],
                            target,
                            entry,
                            labels_i,
                            cfg.confidence,
                        )
                    )
                bar.update(len(batch))
        bar.close()
        cache.close()
    seconds = time.perf_counter() - started
    state.wait_for_everyone()
    report = {
        "method": run["method"],
        "seed": run["seed"],
        "out": str(out),
        "records": len(rows),
        "computed": len(todo),
        "cached": len(rows) - len(todo),
        "seconds": round(seconds, 3),
    }
    if state.is_main_process:
        report.update(
            write_outputs(cfg, run, rows, keys, cache, labels, decoding, adapter, backbone)
        )
        report.update(
            examples_per_s=round(len(mine) / seconds, 2) if mine and seconds else None,
        )
    state.wait_for_everyone()
    partial.unlink(missing_ok=True)
    return report


def write_outputs(
    cfg: DictConfig,
    run: dict[str, Any],
    rows: list[dict[str, Any]],
    keys: list[str],
    cache: GenerationCache,
    labels: dict[str, frozenset[str]],
    decoding: dict[str, Any],
    adapter: str,
    backbone: Backbone,
) -> dict[str, Any]:
    cache.reload()  # every process's entries
    out = Path(cfg.out)
    target = str(cfg.target.name)
    failures: dict[str, int] = {}
    directory = OutputDir(out.parent, "predict", bool(cfg.get("overwrite", False)))
    meta_name = out.name.removesuffix(".jsonl") + ".meta.json"
    directory.check(meta_name)  # refuse before writing either file
    with directory, directory.writing(out.name) as tmp, JsonlWriter(tmp) as writer:
        for row, key in zip(rows, keys, strict=True):
            record = make_record(
                row, run["method"], run["seed"], target, cache.get(key), labels[row["stratum"]],
                str(cfg.confidence),
            )  # fmt: skip
            failures[row["split"]] = failures.get(row["split"], 0) + (not record.parse_ok)
            writer.write(record)
    meta = {
        "method": run["method"],
        "seed": run["seed"],
        "run_dir": str(cfg.run_dir),
        "adapter_sha256": adapter,
        "backbone": backbone.to_json(),
        "decoding": decoding,
        "batch_size": int(cfg.batch_size),
        "confidence_source": str(cfg.confidence),
        "records": len(rows),
        "parse_failures": failures,
        "batch_sizes_used": sorted({int(cache.get(k)["batch_size"]) for k in keys}),
    }
    with directory:
        meta_path = directory.write_json(meta_name, meta)
    return {"parse_failures": sum(failures.values()), "meta": str(meta_path)}
