"""The training loop: gradient accumulation over micro-batches, checkpoints, resume.

The examples of each step come from the step plan (:mod:`reasonbench.train.steps`). The loss is
the sum over all target tokens of the step divided by their global count, so the gradient does
not depend on the number of processes, micro-batches or the batching mode. Token and time
counters (:mod:`reasonbench.train.counters`) are saved with every checkpoint, so a resumed run
reports the whole run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import torch

from reasonbench.models.prompting import Encoded
from reasonbench.progress import Progress
from reasonbench.train import checkpoint
from reasonbench.train.counters import Counters, Tally
from reasonbench.train.lora import batch_inputs, trainable_state
from reasonbench.train.steps import rank_share, step_examples

__all__ = ["LoopResult", "LoopSettings", "Training", "restore", "run_loop", "save"]


class Probe(Protocol):
    """Something measured while a run trains (the learning curve, reasonbench.infer.curve): it
    must change no weight and draw no random number, so a probed run trains the same weights."""

    def due(self, step: int, total: int) -> bool: ...

    def measure(self, model: Any, tokenizer: Any, device: Any) -> dict[str, Any]: ...


# (config, data directory, tokenizer) -> the run's probe, or None when the config asks for none
PlanProbe = Callable[[Mapping[str, Any], Path, Any], "Probe | None"]


@dataclass(frozen=True)
class LoopSettings:
    seed: int
    batch_size: int  # examples per optimizer step, over all processes
    total_steps: int
    batching: str
    micro_batch_tokens: int
    max_grad_norm: float
    save_every: int
    keep_checkpoints: int
    log_every: int
    stop_after: int | None  # optimizer steps in this invocation, then stop as if killed
    progress: bool
    bf16: bool = False  # autocast matmuls to bfloat16 (weights loaded in bf16, LoRA in fp32)


@dataclass
class Training:
    """Everything the loop works on: the prepared (accelerate-wrapped) modules, the encoded
    examples, the settings, where checkpoints go, and where to start (a restored checkpoint)."""

    accelerator: Any
    loss_module: Any  # TargetTokenLoss, wrapped for DDP
    peft_model: Any
    optimizer: torch.optim.Optimizer
    scheduler: Any
    examples: Sequence[Encoded]
    pad_id: int
    settings: LoopSettings
    out_dir: Path
    start_step: int = 0
    done: Counters = field(default_factory=Counters)  # counters at ``start_step``
    curve: Probe | None = None  # the learning curve (``eval.*``), measured by the main process
    decoder: Any = None  # the causal LM the curve decodes with (LoRA layers in place)
    tokenizer: Any = None


@dataclass
class LoopResult:
    start_step: int
    end_step: int
    finished: bool
    losses: list[float]
    total: Counters  # the whole run up to ``end_step``
    invocation: Counters  # this invocation only


def _step(t: Training, step: int, tally: Tally) -> float:
    """One optimizer step; returns its loss (the mean over the step's target tokens)."""
    accelerator, settings = t.accelerator, t.settings
    rank, world = accelerator.process_index, accelerator.num_processes
    chosen = step_examples(step, len(t.examples), settings.batch_size, settings.seed)
    share = rank_share(
        t.examples, chosen, rank, world, settings.batching, settings.micro_batch_tokens, t.pad_id
    )
    local = torch.tensor(float(share.target_tokens), device=accelerator.device)
    global_targets = accelerator.reduce(local, reduction="sum")
    loss_sum = torch.zeros((), device=accelerator.device)
    for k, batch in enumerate(share.batches):
        last = k == len(share.batches) - 1
        with accelerator.no_sync(t.loss_module) if not last else nullcontext():
            with torch.autocast(accelerator.device.type, torch.bfloat16, enabled=settings.bf16):
                summed = t.loss_module(**batch_inputs(batch.to(accelerator.device)))
            # every process runs this backward, a stand-in with scale 0 included (rank_share)
            accelerator.backward(summed * share.loss_scale(world, global_targets))
        if not share.dummy:
            loss_sum += summed.detach()
            tally.add(batch)
    if settings.max_grad_norm > 0:
        params = [p for p in t.peft_model.parameters() if p.requires_grad]
        accelerator.clip_grad_norm_(params, settings.max_grad_norm)
    t.optimizer.step()
    t.scheduler.step()
    t.optimizer.zero_grad(set_to_none=True)
    return float(accelerator.reduce(loss_sum, reduction="sum") / global_targets)


def run_loop(t: Training) -> LoopResult:
    settings, accelerator = t.settings, t.accelerator
    if settings.batch_size < accelerator.num_processes:
        raise ValueError(
            f"optim.batch_size={settings.batch_size} < {accelerator.num_processes} processes"
        )
    log_path = t.out_dir / "train_log.jsonl"
    bar = Progress(
        settings.total_steps,
        "train",
        "steps",
        settings.progress and accelerator.is_main_process,
        initial=t.start_step,
    )
    losses: list[float] = []
    tally = Tally(accelerator, t.done)
    step = t.start_step
    t.loss_module.train()
    while step < settings.total_steps:
        if settings.stop_after is not None and step - t.start_step >= settings.stop_after:
            break
        loss = _step(t, step, tally)
        step += 1
        losses.append(loss)
        bar.update(1)
        bar.set_postfix(loss=f"{loss:.4f}")
        if step % settings.log_every == 0 or step == 1:
            tokens = tally.total().tokens  # every process: the sum is a collective
            if accelerator.is_main_process:
                lr = t.scheduler.get_last_lr()[0]
                entry = {"step": step, "loss": loss, "lr": lr, "tokens": tokens}
                with log_path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry) + "\n")
        if t.curve is not None and t.curve.due(step, settings.total_steps):
            measure_curve(t, step, tally, log_path)
        if step % settings.save_every == 0 or step == settings.total_steps:
            save(t, step, tally.total())
    bar.close()
    invocation = tally.invocation()
    finished = step >= settings.total_steps
    return LoopResult(t.start_step, step, finished, losses, t.done + invocation, invocation)


def measure_curve(t: Training, step: int, tally: Tally, log_path: Path) -> None:
    """One point of the learning curve; its decoding time is not training time."""
    assert t.curve is not None
    paused = time.perf_counter()
    tokens = tally.total().tokens  # every process: the sum is a collective
    if t.accelerator.is_main_process:
        point = t.curve.measure(t.decoder, t.tokenizer, t.accelerator.device)
        with log_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"step": step, "tokens": tokens, "eval": point}) + "\n")
    t.accelerator.wait_for_everyone()
    tally.started += time.perf_counter() - paused


def save(t: Training, step: int, total: Counters) -> None:
    accelerator = t.accelerator
    accelerator.wait_for_everyone()
    checkpoint.write_rng(t.out_dir, step, accelerator.process_index)
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        state = {
            "step": step,
            "trainable": trainable_state(t.peft_model),
            "optimizer": t.optimizer.state_dict(),
            "scheduler": t.scheduler.state_dict(),
            "world_size": accelerator.num_processes,
            "counters": total.to_json(),
        }
        checkpoint.commit(t.out_dir, step, state, t.settings.keep_checkpoints)
    accelerator.wait_for_everyone()


def restore(
    accelerator: Any,
    peft_model: Any,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    path: Path,
) -> tuple[int, Counters]:
    """Load a checkpoint into the modules; returns its step and the run's counters there."""
    state, rng = checkpoint.load(path, accelerator.process_index)
    if state["world_size"] != accelerator.num_processes:
        raise RuntimeError(
            f"{path} was written by {state['world_size']} process(es), this run has "
            f"{accelerator.num_processes}: resume with the same number of processes"
        )
    named = dict(peft_model.named_parameters())
    with torch.no_grad():
        for name, value in state["trainable"].items():
            named[name].copy_(value.to(named[name].device))
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    if rng is not None:
        checkpoint.set_rng_state(rng)
    return int(state["step"]), Counters.from_json(state.get("counters"))
