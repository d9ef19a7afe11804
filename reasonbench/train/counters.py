"""Token and time counters of a training run, cumulative over processes and invocations."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch

from reasonbench.train.batching import MicroBatch

__all__ = ["Counters", "Tally"]


@dataclass(frozen=True)
class Counters:
    """What a run has done so far, over every process and every invocation: real and padded
    tokens, and seconds inside the training loop. Checkpoints carry them, so after a resume
    ``RUN.json`` and ``train_log.jsonl`` report the whole run, not the last invocation (work lost
    between the last checkpoint and a kill is counted once, when it is redone)."""

    tokens: int = 0
    padded_tokens: int = 0
    seconds: float = 0.0

    def __add__(self, other: Counters) -> Counters:
        return Counters(
            self.tokens + other.tokens,
            self.padded_tokens + other.padded_tokens,
            self.seconds + other.seconds,
        )

    @property
    def tokens_per_s(self) -> float | None:
        return round(self.tokens / self.seconds, 1) if self.seconds else None

    def to_json(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "padded_tokens": self.padded_tokens, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Counters:
        if not data:  # a checkpoint written before counters were kept
            return cls()
        return cls(int(data["tokens"]), int(data["padded_tokens"]), float(data["seconds"]))


class Tally:
    """This invocation's local token counts; their sums over processes on demand (a collective:
    every process calls it at the same steps)."""

    def __init__(self, accelerator: Any, done: Counters) -> None:
        self.accelerator, self.done = accelerator, done
        self.tokens = self.padded = 0
        self.started = time.perf_counter()

    def add(self, batch: MicroBatch) -> None:
        self.tokens += batch.tokens
        self.padded += batch.padded_tokens

    def invocation(self) -> Counters:
        local = torch.tensor([self.tokens, self.padded], device=self.accelerator.device)
        tokens, padded = (int(x) for x in self.accelerator.reduce(local, reduction="sum").tolist())
        return Counters(tokens, padded, time.perf_counter() - self.started)

    def total(self) -> Counters:
        return self.done + self.invocation()
