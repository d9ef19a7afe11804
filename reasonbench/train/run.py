"""``reasonbench train``: one LoRA run = one model x target x seed (x data variant).

Outputs in ``out_dir``: ``config.yaml`` (resolved), ``data_manifest.json``, ``fingerprint.json``,
``checkpoints/``, ``train_log.jsonl`` and, once finished, ``adapter/``, ``tokenizer/`` and
``RUN.json``. Rerunning the same command resumes from the last checkpoint, or does nothing when
``RUN.json`` exists. A different configuration in the same ``out_dir`` is refused, naming the
differing fields.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from omegaconf import DictConfig, OmegaConf

from reasonbench.io import claim_directory, write_json, write_text
from reasonbench.models import encode_prompt, encode_target, join, load_model, load_tokenizer
from reasonbench.models.backbone import resolve_backbone
from reasonbench.models.prompting import Encoded
from reasonbench.models.varlen import NAME as VARLEN
from reasonbench.progress import progress as iterate
from reasonbench.train import checkpoint
from reasonbench.train.data import TrainExample, data_manifest, training_examples
from reasonbench.train.loop import LoopSettings, restore, run_loop, steps_per_epoch
from reasonbench.train.lora import TargetTokenLoss, adapter_hash, add_lora

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
TRAIN_DTYPES = ("bf16", "fp32")  # fp16 would need loss scaling; bf16 does not


# what makes a directory a training run of ours: train may write into it (and resume it)
RUN_MARKERS = ("fingerprint.json", "RUN.json")
RUN_WHAT = "a reasonbench training run (no fingerprint.json)"


class RunConflict(RuntimeError):
    """``out_dir`` holds a run with another configuration."""


def fingerprint_fields(cfg: Mapping[str, Any], manifest_sha: str) -> dict[str, Any]:
    fields = {k: v for k, v in cfg.items() if k not in RUNTIME_KEYS}
    fields["model"] = {k: v for k, v in cfg["model"].items() if k not in RUNTIME_MODEL_KEYS}
    fields["data_manifest_sha256"] = manifest_sha
    return fields


def _sha(fields: Mapping[str, Any]) -> str:
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


def encode_all(
    tokenizer: Any, examples: list[TrainExample], max_length: int, progress: bool
) -> list[Encoded]:
    out = []
    for e in iterate(examples, "tokenize", "examples", progress):
        out.append(
            join(encode_prompt(tokenizer, e.prompt), encode_target(tokenizer, e.target), max_length)
        )
    return out


def _settings(cfg: DictConfig, n_examples: int) -> LoopSettings:
    per_epoch = steps_per_epoch(n_examples, int(cfg.optim.batch_size))
    total = int(cfg.optim.max_steps) if cfg.optim.max_steps else int(cfg.optim.epochs) * per_epoch
    return LoopSettings(
        seed=int(cfg.seed),
        batch_size=int(cfg.optim.batch_size),
        total_steps=total,
        batching=str(cfg.batching),
        micro_batch_tokens=int(cfg.model.micro_batch_tokens),
        max_grad_norm=float(cfg.optim.max_grad_norm),
        save_every=int(cfg.save_every),
        keep_checkpoints=int(cfg.keep_checkpoints),
        log_every=int(cfg.log_every),
        stop_after=cfg.get("stop_after_steps"),
        progress=bool(cfg.progress),
        bf16=str(cfg.model.dtype) == "bf16",
    )


def use_cpu(cfg: DictConfig) -> bool:
    """``device: cpu``, or ``auto`` without a GPU; accelerate needs it said explicitly to run
    several CPU processes (``torchrun --nproc_per_node 2``) as one data-parallel job."""
    return str(cfg.get("device", "auto")) == "cpu" or not torch.cuda.is_available()


def attention(cfg: DictConfig) -> str:
    """The attention kernel: padding-free rows need one that takes sequence boundaries."""
    chosen = str(cfg.model.attn_implementation)
    if cfg.batching != "padding_free" or chosen.startswith("flash_attention"):
        return chosen
    if chosen == "sdpa":
        return VARLEN
    raise ValueError(
        f"batching=padding_free needs a variable-length kernel; model.attn_implementation={chosen} "
        "is not one (use sdpa, which selects reasonbench_varlen, or flash_attention_2)"
    )


def save_adapter(peft_model: Any, tokenizer: Any, out_dir: Path, base_name: str) -> str:
    """Adapter and tokenizer, each renamed into place; returns the adapter hash."""
    # the base path in adapter_config.json would make the hash depend on where the backbone lies
    peft_model.peft_config["default"].base_model_name_or_path = base_name
    for name, save in (
        ("adapter", peft_model.save_pretrained),
        ("tokenizer", tokenizer.save_pretrained),
    ):
        staging = out_dir / f".{name}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        save(str(staging), **({"save_embedding_layers": False} if name == "adapter" else {}))
        shutil.rmtree(out_dir / name, ignore_errors=True)
        staging.rename(out_dir / name)
    return adapter_hash(out_dir / "adapter")


def train(cfg: DictConfig) -> dict[str, Any]:
    """Train (or resume, or skip a finished run); returns the run summary."""
    from accelerate import Accelerator
    from transformers import get_scheduler, set_seed

    container: Any = OmegaConf.to_container(cfg, resolve=True)
    out_dir, data_dir = Path(cfg.out_dir), Path(cfg.data_dir)
    set_seed(int(cfg.seed))
    examples = training_examples(data_dir, str(cfg.target.name), cfg.data, int(cfg.seed))
    manifest = data_manifest(data_dir, examples, cfg.data, str(cfg.target.name))
    fields = fingerprint_fields(container, manifest["sha256"])
    claim_directory(out_dir, RUN_MARKERS, RUN_WHAT, bool(cfg.get("overwrite", False)))
    check_same_run(out_dir, fields)
    if (out_dir / "RUN.json").is_file():
        summary: dict[str, Any] = json.loads((out_dir / "RUN.json").read_text())
        return {**summary, "skipped": True}
    precision = str(cfg.model.dtype)
    if precision not in TRAIN_DTYPES:
        raise ValueError(f"model.dtype={precision} cannot train; use one of {list(TRAIN_DTYPES)}")
    backbone = resolve_backbone(cfg.model, data_dir)  # fails fast, before any process group
    # mixed precision is our own autocast, not Accelerator(mixed_precision=...): accelerate keeps
    # one process-wide state, so a multirun mixing bf16 and fp32 models could not change it
    accelerator = Accelerator(cpu=use_cpu(cfg))
    if accelerator.is_main_process:
        out_dir.mkdir(parents=True, exist_ok=True)
        checkpoint.remove_stale(out_dir)
        write_text(out_dir / "config.yaml", OmegaConf.to_yaml(cfg, resolve=True))
        write_json(out_dir / "data_manifest.json", manifest)
        write_json(out_dir / "fingerprint.json", {"sha256": _sha(fields), "fields": fields})
    accelerator.wait_for_everyone()

    tokenizer = load_tokenizer(backbone)
    encoded = encode_all(tokenizer, examples, int(cfg.max_length), bool(cfg.progress))
    model = load_model(backbone, precision, attention(cfg))
    set_seed(int(cfg.seed))  # LoRA's random init depends on the seed alone
    peft_model = add_lora(model, cfg.lora, bool(cfg.model.gradient_checkpointing))
    loss_module = accelerator.prepare(TargetTokenLoss(peft_model))
    params = [p for p in peft_model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        params,
        lr=float(cfg.optim.lr),
        weight_decay=float(cfg.optim.weight_decay),
        betas=(float(cfg.optim.betas[0]), float(cfg.optim.betas[1])),
    )
    settings = _settings(cfg, len(encoded))
    scheduler = get_scheduler(
        str(cfg.optim.scheduler),
        optimizer,
        num_warmup_steps=math.ceil(float(cfg.optim.warmup_ratio) * settings.total_steps),
        num_training_steps=settings.total_steps,
    )
    latest = checkpoint.latest_checkpoint(out_dir)
    start = restore(accelerator, peft_model, optimizer, scheduler, latest) if latest else 0
    if accelerator.is_main_process and start:
        print(f"resuming {cfg.method} seed {cfg.seed} from {latest} (step {start})")
    pad_id = int(tokenizer.pad_token_id)
    result = run_loop(
        accelerator, loss_module, peft_model, optimizer, scheduler, encoded, pad_id, settings,
        out_dir, start,
    )  # fmt: skip
    counts = torch.tensor([result.tokens, result.padded_tokens], device=accelerator.device)
    tokens, padded = (int(x) for x in accelerator.reduce(counts, reduction="sum").tolist())
    summary = {
        "method": str(cfg.method),
        "seed": int(cfg.seed),
        "target": str(cfg.target.name),
        "backbone": backbone.to_json(),
        "data_manifest_sha256": manifest["sha256"],
        "fingerprint": _sha(fields),
        "examples": len(encoded),
        "truncated_prompts": sum(e.truncated for e in encoded),
        "steps": result.end_step,
        "total_steps": settings.total_steps,
        "resumed_from": start,
        "last_loss": result.losses[-1] if result.losses else None,
        "tokens": tokens,  # over all processes, this invocation
        "padded_tokens": padded,
        "seconds": round(result.seconds, 3),
        "tokens_per_s": round(tokens / result.seconds, 1) if result.seconds else None,
        "world_size": accelerator.num_processes,
        "batching": settings.batching,
        "finished": result.finished,
    }
    if result.finished:
        accelerator.wait_for_everyone()
        if accelerator.is_main_process:
            summary["adapter_sha256"] = save_adapter(
                accelerator.unwrap_model(loss_module).peft_model, tokenizer, out_dir,
                str(cfg.model.get("hf_id") or backbone.name),
            )  # fmt: skip
            write_json(out_dir / "RUN.json", summary)
        accelerator.wait_for_everyone()
    return summary
