"""``reasonbench predict``: a trained run's greedy predictions on benchmark splits.

Generations come from the cache when present (``cache.py``); only the misses are decoded, longest
prompts first in batches of ``batch_size`` (similar lengths, little padding), each batch cached
and its records appended to ``<out>.rank<i>.partial`` as soon as it is done. The model is not
even loaded when everything is cached. At the end the main process writes ``<out>`` atomically in
benchmark order (a rerun from the cache writes identical bytes) and ``<out stem>.meta.json`` with
the decoding config, batch size and counts (and the plug-ins loaded, when any: ``analyze`` loads
them too).

Under ``accelerate launch`` the batches are formed first, from every miss, and then dealt to the
processes in turn: each generation is decoded in the same batch (same rows, same padding) whatever
the number of processes, so 2 processes write the same records as 1 (confidences to float32
rounding: a CPU kernel may round a logit differently in a process under ``torch.distributed``).
The prompt pass runs with the configured ``threads`` (torch's CPU thread count), the one-token
steps after it on one thread (``STEP_THREADS``: infer/decode.py says why), with ``cpu_kernels``;
all set by the command itself and all part of the cache key.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from reasonbench.infer.confidence import SOURCES, cache_entry
from reasonbench.infer.decode import greedy_decode
from reasonbench.infer.job import STEP_THREADS, PredictError, PredictJob, plan_job
from reasonbench.infer.records import make_record
from reasonbench.io import OutputDir
from reasonbench.io.atomic import scratch
from reasonbench.models import backbone_at, encode_prompt, load_model, load_tokenizer
from reasonbench.models.device import check_threads, torch_threads, use_cpu
from reasonbench.models.kernels import use_kernels
from reasonbench.models.tuning import get_tuning
from reasonbench.plugins import loaded_plugins
from reasonbench.predictions.io import JsonlWriter
from reasonbench.progress import Progress

__all__ = ["PredictError", "predict", "shard_batches"]


def load_predictor(job: PredictJob, device: Any) -> Any:
    cfg = job.cfg
    tuning = get_tuning(job.run.tuning)
    weights = job.run.adapter_dir
    source = backbone_at(tuning.model_dir(job.backbone.path, weights), job.backbone.name)
    model = load_model(source, str(cfg.model.dtype), str(cfg.model.attn_implementation))
    return tuning.adapt(model, weights, bool(cfg.merge_adapter)).to(device)


def shard_batches(
    lengths: dict[int, int], batch_size: int, rank: int, world: int
) -> list[list[int]]:
    """Rows longest first (ties in row order), cut into batches, every ``world``-th batch from
    ``rank`` on: batch composition does not depend on the number of processes."""
    order = sorted(lengths, key=lambda i: (-lengths[i], i))
    batches = [order[at : at + batch_size] for at in range(0, len(order), batch_size)]
    return batches[rank::world]


def _record(job: PredictJob, i: int, entry: dict[str, Any]) -> Any:
    row = job.rows[i]
    return make_record(
        row, job.run.method, job.run.seed, job.target, entry, job.labels[row["stratum"]],
        str(job.cfg.confidence),
    )  # fmt: skip


def decode_missing(job: PredictJob, state: Any, todo: Sequence[int]) -> int:
    """Decode this process's batches of ``todo``; returns how many examples it decoded."""
    cfg = job.cfg
    tokenizer = load_tokenizer(job.backbone)
    encoded = {i: encode_prompt(tokenizer, job.rows[i]["prompt"]) for i in todo}
    lengths = {i: len(ids) for i, ids in encoded.items()}
    mine = shard_batches(lengths, int(cfg.batch_size), state.process_index, state.num_processes)
    count = sum(len(b) for b in mine)
    if not count:
        return 0
    model = load_predictor(job, state.device)
    partial = job.out.with_name(f"{job.out.name}.rank{state.process_index}.partial")
    bar = Progress(count, f"predict {job.run.method}", "examples", bool(cfg.progress))
    partial.unlink(missing_ok=True)
    budget = int(job.decoding["max_new_tokens"])
    # the partial records show progress while decoding; the outputs come from the cache, so the
    # partial file goes when decoding ends, however it ends (Ctrl-C included)
    with scratch(partial), JsonlWriter(partial) as writer:
        for batch in mine:
            gens = greedy_decode(
                model, [encoded[i] for i in batch], int(tokenizer.pad_token_id),
                int(tokenizer.eos_token_id), budget, state.device, STEP_THREADS,
            )  # fmt: skip
            entries = [
                cache_entry(
                    job.keys[i],
                    g,
                    tokenizer,
                    job.target,
                    job.labels[job.rows[i]["stratum"]],
                    len(batch),
                )  # fmt: skip
                for i, g in zip(batch, gens, strict=True)
            ]
            job.cache.put(entries)
            for i, entry in zip(batch, entries, strict=True):
                writer.write(_record(job, i, entry))
            bar.update(len(batch))
    bar.close()
    job.cache.close()
    return count


def predict(cfg: DictConfig) -> dict[str, Any]:
    from accelerate import PartialState
    from transformers import set_seed

    if cfg.confidence not in SOURCES:
        raise PredictError(f"confidence must be one of {list(SOURCES)}, got {cfg.confidence!r}")
    check_threads(cfg.threads)
    use_kernels(str(cfg.cpu_kernels))  # before torch runs a kernel (models/kernels.py)
    set_seed(int(cfg.seed))
    out = Path(cfg.out)
    state = PartialState(cpu=use_cpu(str(cfg.get("device", "auto"))))
    # after PartialState, which sets its own count under a multi-CPU launch (see train)
    with torch_threads(int(cfg.threads)):
        return _predict(cfg, state, out)


def _predict(cfg: DictConfig, state: Any, out: Path) -> dict[str, Any]:
    if state.is_main_process:  # refuse a foreign output file before decoding anything
        directory = OutputDir(out.parent, "predict", bool(cfg.get("overwrite", False)))
        directory.check(out.name)
        directory.check(_meta_name(out))
    job = plan_job(cfg, state.process_index)
    todo = job.todo()
    # Every rank shards the same ``todo``, read from the cache before any rank writes to it: a
    # rank that started decoding while another still read the cache made their lists differ,
    # and an example fell between the shards (a KeyError when the records were written).
    state.wait_for_everyone()
    started = time.perf_counter()
    decoded = decode_missing(job, state, todo) if todo else 0
    seconds = time.perf_counter() - started
    state.wait_for_everyone()
    report = {
        "method": job.run.method,
        "seed": job.run.seed,
        "out": str(out),
        "records": len(job.rows),
        "computed": len(todo),
        "cached": len(job.rows) - len(todo),
        "seconds": round(seconds, 3),
    }
    if state.is_main_process:
        report.update(write_outputs(job))
        report.update(examples_per_s=round(decoded / seconds, 2) if decoded and seconds else None)
    state.wait_for_everyone()
    out.with_name(f"{out.name}.rank{state.process_index}.partial").unlink(missing_ok=True)
    return report


def _meta_name(out: Path) -> str:
    return out.name.removesuffix(".jsonl") + ".meta.json"


def write_outputs(job: PredictJob) -> dict[str, Any]:
    """The records in benchmark order, then the meta file (main process, after every rank)."""
    job.cache.reload()  # every process's entries
    cfg, out = job.cfg, job.out
    failures: dict[str, int] = {}
    directory = OutputDir(out.parent, "predict", bool(cfg.get("overwrite", False)))
    meta_name = _meta_name(out)
    directory.check(meta_name)  # refuse before writing either file
    with directory, directory.writing(out.name) as tmp, JsonlWriter(tmp) as writer:
        for i, (row, key) in enumerate(zip(job.rows, job.keys, strict=True)):
            record = _record(job, i, job.cache.get(key))
            failures[row["split"]] = failures.get(row["split"], 0) + (not record.parse_ok)
            writer.write(record)
    meta = {
        "method": job.run.method,
        "seed": job.run.seed,
        "run_dir": str(cfg.run_dir),
        "adapter_sha256": job.adapter,
        "backbone": job.backbone.to_json(),
        "decoding": job.decoding,
        "batch_size": int(cfg.batch_size),
        "confidence_source": str(cfg.confidence),
        "records": len(job.rows),
        "parse_failures": failures,
        "batch_sizes_used": sorted({int(job.cache.get(k)["batch_size"]) for k in job.keys}),
    }
    plugins = loaded_plugins()  # recorded only when there are any: a run without keeps its bytes
    if plugins:
        meta["plugins"] = plugins
    with directory:
        meta_path = directory.write_json(meta_name, meta)
    return {"parse_failures": sum(failures.values()), "meta": str(meta_path)}
