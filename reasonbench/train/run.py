"""``reasonbench train``: one LoRA run = one model x target x seed (x data variant).

Outputs in ``out_dir``: ``config.yaml`` (resolved), ``data_manifest.json``, ``fingerprint.json``,
``checkpoints/``, ``train_log.jsonl`` and, once finished, ``adapter/``, ``tokenizer/`` and
``RUN.json``. Rerunning the same command resumes from the last checkpoint, or does nothing when
``RUN.json`` exists. A different configuration in the same ``out_dir`` is refused, naming the
differing fields. The run sets torch's CPU thread count to its ``threads`` itself, so it computes
the same adapter in-process, under ``-m``, submitit or accelerate, whatever ``OMP_NUM_THREADS``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from omegaconf import DictConfig, OmegaConf

from reasonbench.io import claim_directory, write_json, write_text
from reasonbench.models import encode_prompt, encode_target, join, load_model, load_tokenizer
from reasonbench.models.backbone import Backbone, resolve_backbone
from reasonbench.models.device import check_threads, torch_threads, use_cpu
from reasonbench.models.kernels import check_kernels, use_kernels
from reasonbench.models.prompting import Encoded
from reasonbench.models.trained import TrainedRun
from reasonbench.models.tuning import get_tuning, save_trained
from reasonbench.models.varlen import NAME as VARLEN
from reasonbench.progress import progress as iterate
from reasonbench.train import checkpoint
from reasonbench.train.data import TrainExample, data_manifest, training_examples
from reasonbench.train.fingerprint import (
    RUN_MARKERS,
    RUN_WHAT,
    check_same_run,
    fingerprint_fields,
    fingerprint_sha,
)
from reasonbench.train.loop import (
    LoopResult,
    LoopSettings,
    PlanProbe,
    Training,
    restore,
    run_loop,
)
from reasonbench.train.lora import TargetTokenLoss
from reasonbench.train.steps import steps_per_epoch

TRAIN_DTYPES = ("bf16", "fp32")  # fp16 would need loss scaling; bf16 does not


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


def tuning_of(cfg: DictConfig) -> str:
    """``model.tuning``: ``lora`` (a pretrained backbone) unless the model says otherwise."""
    return str(cfg.model.get("tuning") or "lora")


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


@dataclass(frozen=True)
class RunPlan:
    """What one ``train`` command works on, settled before any process group starts."""

    cfg: DictConfig
    out_dir: Path
    data_dir: Path
    examples: list[TrainExample]
    manifest: dict[str, Any]
    fields: dict[str, Any]  # the fingerprinted configuration

    @property
    def fingerprint(self) -> str:
        return fingerprint_sha(self.fields)


def plan_run(cfg: DictConfig) -> RunPlan:
    """Data, manifest and fingerprint; claims ``out_dir`` and refuses another run's."""
    check_threads(cfg.threads)  # before anything is read or written
    check_kernels(cfg.cpu_kernels)
    container: Any = OmegaConf.to_container(cfg, resolve=True)
    out_dir, data_dir = Path(cfg.out_dir), Path(cfg.data_dir)
    examples = training_examples(data_dir, str(cfg.target.name), cfg.data, int(cfg.seed))
    manifest = data_manifest(data_dir, examples, cfg.data, str(cfg.target.name))
    fields = fingerprint_fields(container, manifest["sha256"])
    claim_directory(out_dir, RUN_MARKERS, RUN_WHAT, bool(cfg.get("overwrite", False)))
    check_same_run(out_dir, fields)
    precision = str(cfg.model.dtype)
    if precision not in TRAIN_DTYPES:
        raise ValueError(f"model.dtype={precision} cannot train; use one of {list(TRAIN_DTYPES)}")
    return RunPlan(cfg, out_dir, data_dir, examples, manifest, fields)


def open_run(plan: RunPlan, accelerator: Any) -> None:
    """The main process writes the run's identity files (every process waits for them)."""
    if accelerator.is_main_process:
        plan.out_dir.mkdir(parents=True, exist_ok=True)
        checkpoint.remove_stale(plan.out_dir)
        write_text(plan.out_dir / "config.yaml", OmegaConf.to_yaml(plan.cfg, resolve=True))
        write_json(plan.out_dir / "data_manifest.json", plan.manifest)
        write_json(
            plan.out_dir / "fingerprint.json", {"sha256": plan.fingerprint, "fields": plan.fields}
        )
    accelerator.wait_for_everyone()


def build_training(
    plan: RunPlan, accelerator: Any, backbone: Backbone, plan_probe: PlanProbe | None = None
) -> tuple[Training, Any, list[Encoded]]:
    """(the loop's inputs, restored from the last checkpoint if any; tokenizer; encoded data)."""
    from transformers import get_scheduler, set_seed

    cfg = plan.cfg
    tokenizer = load_tokenizer(backbone)
    encoded = encode_all(tokenizer, plan.examples, int(cfg.max_length), bool(cfg.progress))
    model = load_model(backbone, str(cfg.model.dtype), attention(cfg))
    set_seed(int(cfg.seed))  # LoRA's random init depends on the seed alone
    tuning = get_tuning(tuning_of(cfg))
    peft_model = tuning.prepare(model, cfg.lora, bool(cfg.model.gradient_checkpointing))
    loss_module = accelerator.prepare(TargetTokenLoss(peft_model, tuning.causal_lm))
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
    training = Training(
        accelerator, loss_module, peft_model, optimizer, scheduler, encoded,
        int(tokenizer.pad_token_id), settings, plan.out_dir,
        curve=plan_probe(cfg, plan.data_dir, tokenizer) if plan_probe else None,
        decoder=tuning.causal_lm(peft_model), tokenizer=tokenizer,
    )  # fmt: skip
    latest = checkpoint.latest_checkpoint(plan.out_dir)
    if latest is not None:
        training.start_step, training.done = restore(
            accelerator, peft_model, optimizer, scheduler, latest
        )
        if accelerator.is_main_process:
            print(
                f"resuming {cfg.method} seed {cfg.seed} from {latest} (step {training.start_step})"
            )
    return training, tokenizer, encoded


def summarize(
    plan: RunPlan,
    backbone: Backbone,
    training: Training,
    encoded: list[Encoded],
    result: LoopResult,
    kernels: dict[str, str | None],
) -> dict[str, Any]:
    """``RUN.json``'s content: the counters cover the whole run, every invocation included."""
    cfg, total, now = plan.cfg, result.total, result.invocation
    return {
        "method": str(cfg.method),
        "seed": int(cfg.seed),
        "target": str(cfg.target.name),
        "backbone": backbone.to_json(),
        "tuning": tuning_of(cfg),
        "data_manifest_sha256": plan.manifest["sha256"],
        "fingerprint": plan.fingerprint,
        "examples": len(encoded),
        "truncated_prompts": sum(e.truncated for e in encoded),
        "steps": result.end_step,
        "total_steps": training.settings.total_steps,
        "resumed_from": result.start_step,
        "last_loss": result.losses[-1] if result.losses else None,
        "tokens": total.tokens,  # over all processes and invocations
        "padded_tokens": total.padded_tokens,
        "seconds": round(total.seconds, 3),
        "tokens_per_s": total.tokens_per_s,
        "this_invocation": {
            "steps": result.end_step - result.start_step,
            "tokens": now.tokens,
            "seconds": round(now.seconds, 3),
            "tokens_per_s": now.tokens_per_s,
        },
        "world_size": training.accelerator.num_processes,
        "threads": torch.get_num_threads(),  # per process, as torch applied ``threads``
        "cpu_kernels": kernels,  # as applied: the setting, ATen's capability, MKL's branch
        "batching": training.settings.batching,
        "finished": result.finished,
    }


def train(cfg: DictConfig, plan_probe: PlanProbe | None = None) -> dict[str, Any]:
    """Train (or resume, or skip a finished run); returns the run summary.

    ``plan_probe`` builds the learning curve (``eval.*``) from the config, the data directory and
    the tokenizer: :func:`reasonbench.infer.curve.plan_curve` in ``reasonbench train``. Training
    never imports inference, so the caller hands it in; ``eval.every > 0`` without one is refused.
    """
    from accelerate import Accelerator
    from transformers import set_seed

    kernels = use_kernels(str(cfg.cpu_kernels))  # before torch runs a kernel (models/kernels.py)
    set_seed(int(cfg.seed))
    if plan_probe is None and int((cfg.get("eval") or {}).get("every") or 0) > 0:
        raise ValueError(
            "eval.every > 0 needs a learning-curve probe: run `reasonbench train`, or pass "
            "plan_probe=reasonbench.infer.curve.plan_curve to reasonbench.train.train"
        )
    plan = plan_run(cfg)
    if TrainedRun.finished(plan.out_dir):
        return {**TrainedRun.read(plan.out_dir).summary, "skipped": True}
    backbone = resolve_backbone(cfg.model, plan.data_dir)  # fails fast, before any process group
    # mixed precision is our own autocast, not Accelerator(mixed_precision=...): accelerate keeps
    # one process-wide state, so a multirun mixing bf16 and fp32 models could not change it
    accelerator = Accelerator(cpu=use_cpu(str(cfg.get("device", "auto"))))
    # after the Accelerator: under a multi-CPU launch without OMP_NUM_THREADS it sets a count of
    # its own (cores / processes), which ``threads`` replaces
    with torch_threads(int(cfg.threads)):
        open_run(plan, accelerator)
        training, tokenizer, encoded = build_training(plan, accelerator, backbone, plan_probe)
        result = run_loop(training)
        summary = summarize(plan, backbone, training, encoded, result, kernels)
        if result.finished:
            accelerator.wait_for_everyone()
            if accelerator.is_main_process:
                summary["adapter_sha256"] = save_trained(
                    get_tuning(tuning_of(cfg)),
                    accelerator.unwrap_model(training.loss_module).peft_model, tokenizer,
                    plan.out_dir, str(cfg.model.get("hf_id") or backbone.name),
                )  # fmt: skip
                TrainedRun.write(plan.out_dir, summary)
            accelerator.wait_for_everyone()
    return summary
