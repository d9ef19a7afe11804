"""The training loop: deterministic step plan, gradient accumulation, checkpoints, resume.

Which examples form optimizer step ``t`` is a pure function of (seed, t): epoch ``t // steps per
epoch`` shuffles with ``Random("<seed>:order:<epoch>")``. Resuming therefore needs only the step
number, and a resumed run sees exactly the batches an uninterrupted one would. Under
``accelerate launch`` each process takes every ``world``-th example of a step; the loss is the sum
over all target tokens of the step divided by their global count, so the gradient does not depend
on the number of processes, micro-batches or the batching mode.

A step can hold fewer examples than there are processes (the last step of an epoch whose size is
not a multiple of ``batch_size``). A process left without an example still runs one forward and
backward — on a stand-in example of the step, its loss multiplied by 0 (:func:`rank_share`) — so
every process enters DDP's gradient all-reduce and the later collectives in the same order (a
skipped backward would hang the job or let the replicas drift apart); the zero loss adds nothing
to the gradient, the logged loss or the token counts.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from reasonbench.models.prompting import Encoded
from reasonbench.progress import Progress
from reasonbench.train import checkpoint
from reasonbench.train.batching import MicroBatch, micro_batches
from reasonbench.train.lora import batch_inputs, trainable_state


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


def steps_per_epoch(n_examples: int, batch_size: int) -> int:
    return math.ceil(n_examples / batch_size)


def step_examples(step: int, n_examples: int, batch_size: int, seed: int) -> list[int]:
    per_epoch = steps_per_epoch(n_examples, batch_size)
    epoch, within = divmod(step, per_epoch)
    order = list(range(n_examples))
    random.Random(f"{seed}:order:{epoch}").shuffle(order)
    return order[within * batch_size : (within + 1) * batch_size]


@dataclass(frozen=True)
class RankShare:
    """One process's part of an optimizer step."""

    batches: list[MicroBatch]
    dummy: bool  # no example of the step is this process's: one stand-in, its loss times 0

    @property
    def target_tokens(self) -> int:
        return 0 if self.dummy else sum(b.target_tokens for b in self.batches)

    def loss_scale(self, world: int, global_targets: torch.Tensor) -> float | torch.Tensor:
        """Factor on a micro-batch's summed loss before backward. DDP averages gradients over
        processes, so ``world / global_targets`` gives the global per-token mean; 0 for a stand-in
        (the backward then only keeps the collectives aligned)."""
        return 0.0 if self.dummy else world / global_targets


def rank_share(
    examples: Sequence[Encoded],
    chosen: Sequence[int],
    rank: int,
    world: int,
    batching: str,
    micro_batch_tokens: int,
    pad_id: int,
) -> RankShare:
    """Micro-batches of process ``rank`` for a step's examples ``chosen``: every ``world``-th one,
    or, when that leaves none, the step's first example as a stand-in (``dummy``)."""
    if not chosen:
        raise ValueError("an optimizer step without examples")
    mine = [examples[i] for i in chosen[rank::world]]
    if mine:
        return RankShare(micro_batches(mine, batching, micro_batch_tokens, pad_id), False)
    stand_in = [examples[chosen[0]]]
    return RankShare(micro_batches(stand_in, batching, micro_batch_tokens, pad_id), True)


@dataclass
class LoopResult:
    start_step: int
    end_step: int
    finished: bool
    losses: list[float]
    tokens: int
    padded_tokens: int
    seconds: float


def run_loop(
    accelerator: Any,
    loss_module: Any,
    peft_model: Any,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    examples: Sequence[Encoded],
    pad_id: int,
    settings: LoopSettings,
    out_dir: Path,
    start_step: int = 0,
) -> LoopResult:
    rank, world = accelerator.process_index, accelerator.num_processes
    if settings.batch_size < world:
        raise ValueError(f"optim.batch_size={settings.batch_size} < {world} processes")
    params = [p for p in peft_model.parameters() if p.requires_grad]
    log_path = out_dir / "train_log.jsonl"
    bar = Progress(
        settings.total_steps,
        "train",
        "steps",
        settings.progress and accelerator.is_main_process,
        initial=start_step,
    )
    losses: list[float] = []
    tokens = padded = 0
    started = time.perf_counter()
    step = start_step
    loss_module.train()
    while step < settings.total_steps:
        if settings.stop_after is not None and step - start_step >= settings.stop_after:
            break
        chosen = step_examples(step, len(examples), settings.batch_size, settings.seed)
        share = rank_share(
            examples, chosen, rank, world, settings.batching, settings.micro_batch_tokens, pad_id
        )
        local = torch.tensor(float(share.target_tokens), device=accelerator.device)
        global_targets = accelerator.reduce(local, reduction="sum")
        loss_sum = torch.zeros((), device=accelerator.device)
        for k, batch in enumerate(share.batches):
            last = k == len(share.batches) - 1
            with accelerator.no_sync(loss_module) if not last else nullcontext():
                with torch.autocast(accelerator.device.type, torch.bfloat16, enabled=settings.bf16):
                    summed = loss_module(**batch_inputs(batch.to(accelerator.device)))
                # every process runs this backward, a stand-in with scale 0 included (rank_share)
                accelerator.backward(summed * share.loss_scale(world, global_targets))
            if not share.dummy:
                loss_sum += summed.detach()
                tokens += batch.tokens
                padded += batch.padded_tokens
        if settings.max_grad_norm > 0:
            accelerator.clip_grad_norm_(params, settings.max_grad_norm)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        loss = float(accelerator.reduce(loss_sum, reduction="sum") / global_targets)
        losses.append(loss)
        bar.update(1)
        bar.set_postfix(loss=f"{loss:.4f}")
        if accelerator.is_main_process and (step % settings.log_every == 0 or step == 1):
            entry = {"step": step, "loss": loss, "lr": scheduler.get_last_lr()[0], "tokens": tokens}
            with log_path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry) + "\n")
        if step % settings.save_every == 0 or step == settings.total_steps:
            save(accelerator, peft_model, optimizer, scheduler, out_dir, step, settings)
    bar.close()
    return LoopResult(
        start_step,
        step,
        step >= settings.total_steps,
        losses,
        tokens,
        padded,
        time.perf_counter() - started,
    )


def save(
    accelerator: Any,
    peft_model: Any,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    out_dir: Path,
    step: int,
    settings: LoopSettings,
) -> None:
    accelerator.wait_for_everyone()
    checkpoint.write_rng(out_dir, step, accelerator.process_index)
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        state = {
            "step": step,
            "trainable": trainable_state(peft_model),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "world_size": accelerator.num_processes,
        }
        checkpoint.commit(out_dir, step, state, settings.keep_checkpoints)
    accelerator.wait_for_everyone()


def restore(
    accelerator: Any,
    peft_model: Any,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    path: Path,
) -> int:
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
    return int(state["step"])
