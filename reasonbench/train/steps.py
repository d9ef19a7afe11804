"""The step plan: which examples form optimizer step ``t``, and each process's part of it.

Which examples form step ``t`` is a pure function of (seed, t): epoch ``t // steps per epoch``
shuffles with ``Random("<seed>:order:<epoch>")``. Resuming therefore needs only the step number,
and a resumed run sees exactly the batches an uninterrupted one would. Under ``accelerate launch``
each process takes every ``world``-th example of a step.

A step can hold fewer examples than there are processes (the last step of an epoch whose size is
not a multiple of ``batch_size``). A process left without an example still runs one forward and
backward — on a stand-in example of the step, its loss multiplied by 0 (:func:`rank_share`) — so
every process enters DDP's gradient all-reduce and the later collectives in the same order (a
skipped backward would hang the job or let the replicas drift apart); the zero loss adds nothing
to the gradient, the logged loss or the token counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from reasonbench.models.prompting import Encoded
from reasonbench.train.batching import MicroBatch, micro_batches

__all__ = ["RankShare", "rank_share", "step_examples", "steps_per_epoch"]


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
