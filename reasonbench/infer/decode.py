"""Batched decoding: left padding, attention mask, KV cache, per-token probabilities.

A plain loop over ``model.forward`` rather than ``generate``: it records the log-probability of
every emitted token from the raw logits (no logits processor can distort the confidence), stops
as soon as every row has emitted end-of-sequence, and computes the head only for the last position
during the prompt pass. The next token is the argmax (:func:`greedy_decode`, what ``predict`` and
every greedy judge use) or drawn by a :class:`Sampler` (temperature and nucleus sampling from a
seeded generator, for sampling judges); everything else is the same loop.

Threads: the prompt pass runs with the caller's torch thread count; the steps after it may run with
another (``step_threads``). The prompt pass is where the time goes on a CPU (91 % of a batch of 64
cube prompts for small_cpu: ~300 prompt tokens per row against ~40 one-token steps), and it splits
well over threads; a step multiplies 64 rows by 128-wide weights, where OpenMP's start-up costs
more than the work (measured: a batch's steps took 0.55 s on one thread, 1.45 s on two). Each
phase's thread count is part of ``predict``'s decoding config and cache key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import torch

from reasonbench.models.device import torch_threads


@dataclass(frozen=True)
class Generation:
    token_ids: tuple[int, ...]  # emitted tokens, end-of-sequence excluded
    logprobs: tuple[float, ...]  # one per emitted token, plus the end-of-sequence token if emitted
    finished: bool  # end-of-sequence emitted within the token budget

    @property
    def seq_logprob(self) -> float:
        return float(sum(self.logprobs))


def left_pad(
    prompts: Sequence[Sequence[int]], pad_id: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(input_ids, attention_mask, position_ids): rows end together, so the next token of every
    row is predicted from the last column."""
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for i, p in enumerate(prompts):
        if p:
            ids[i, width - len(p) :] = torch.tensor(list(p), dtype=torch.long)
            mask[i, width - len(p) :] = 1
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    return ids, mask, positions


Chooser = Callable[[torch.Tensor], torch.Tensor]  # float logits [rows, vocab] -> token ids [rows]


def argmax(logits: torch.Tensor) -> torch.Tensor:
    return logits.argmax(dim=-1)


@dataclass(frozen=True)
class Sampler:
    """Draws the next token from softmax(logits / temperature), restricted to the smallest set of
    most probable tokens whose mass reaches ``top_p`` (nucleus sampling; 1.0 keeps all)."""

    temperature: float
    top_p: float
    generator: torch.Generator

    def __call__(self, logits: torch.Tensor) -> torch.Tensor:
        probs = torch.softmax(logits / self.temperature, dim=-1)
        if self.top_p < 1.0:
            sorted_probs, order = probs.sort(dim=-1, descending=True)
            before = sorted_probs.cumsum(dim=-1) - sorted_probs  # mass of the more probable ones
            sorted_probs[before >= self.top_p] = 0.0  # the most probable token always stays
            probs = torch.zeros_like(probs).scatter(-1, order, sorted_probs)
        return torch.multinomial(probs, 1, generator=self.generator).squeeze(1)


def sampler(temperature: float, top_p: float, seed: int, device: torch.device | str) -> Sampler:
    generator = torch.Generator(device=device).manual_seed(seed)
    return Sampler(temperature, top_p, generator)


def kv_cache(out: Any) -> dict[str, Any]:
    """The KV cache of a forward's output, as the keyword the next forward takes: transformers
    renamed ``past_key_values`` to ``cache`` during 5.x (5.17 has the old name, 5.24 the new), and
    a forward with ``**kwargs`` would silently drop the wrong one and decode without context."""
    names = {f.name for f in dataclasses.fields(out)}
    name = "cache" if "cache" in names else "past_key_values"
    if name not in names:
        raise TypeError(f"{type(out).__name__} carries no KV cache (cache / past_key_values)")
    return {name: getattr(out, name)}


def greedy_decode(
    model: Any,
    prompts: Sequence[Sequence[int]],
    pad_id: int,
    eos_id: int,
    max_new_tokens: int,
    device: torch.device | str = "cpu",
    step_threads: int | None = None,
) -> list[Generation]:
    return decode(model, prompts, pad_id, eos_id, max_new_tokens, device, argmax, step_threads)


@torch.inference_mode()
def decode(
    model: Any,
    prompts: Sequence[Sequence[int]],
    pad_id: int,
    eos_id: int,
    max_new_tokens: int,
    device: torch.device | str = "cpu",
    choose: Chooser = argmax,
    step_threads: int | None = None,
) -> list[Generation]:
    """Decode ``prompts`` in one batch; ``step_threads`` (None: the caller's count) runs the
    one-token steps after the prompt pass."""
    ids, mask, positions = (t.to(device) for t in left_pad(prompts, pad_id))
    rows = len(prompts)
    out = model(
        input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True, logits_to_keep=1
    )
    position = positions[:, -1:]
    with torch_threads(step_threads) if step_threads else nullcontext():
        return _steps(
            model, out, mask, position, rows, pad_id, eos_id, max_new_tokens, device, choose
        )


def _steps(
    model: Any,
    out: Any,
    mask: torch.Tensor,
    position: torch.Tensor,
    rows: int,
    pad_id: int,
    eos_id: int,
    max_new_tokens: int,
    device: torch.device | str,
    choose: Chooser,
) -> list[Generation]:
    """Emit up to ``max_new_tokens`` per row after the prompt pass's ``out``."""
    tokens: list[list[int]] = [[] for _ in range(rows)]
    logprobs: list[list[float]] = [[] for _ in range(rows)]
    done = torch.zeros(rows, dtype=torch.bool, device=device)
    for _ in range(max_new_tokens):
        logits = out.logits[:, -1, :].float()
        chosen = choose(logits)
        picked = torch.log_softmax(logits, dim=-1).gather(1, chosen[:, None]).squeeze(1)
        for i, (token, lp, finished) in enumerate(
            zip(chosen.tolist(), picked.tolist(), done.tolist(), strict=True)
        ):
            if not finished:
                logprobs[i].append(lp)
                if token != eos_id:
                    tokens[i].append(token)
        done |= chosen == eos_id
        if bool(done.all()):
            break
        feed = torch.where(done, torch.full_like(chosen, pad_id), chosen)
        mask = torch.cat([mask, torch.ones((rows, 1), dtype=mask.dtype, device=device)], dim=1)
        position = position + 1
        out = model(
            input_ids=feed[:, None],
            attention_mask=mask,
            position_ids=position,
            use_cache=True,
            **kv_cache(out),
        )
    return [Generation(tuple(tokens[i]), tuple(logprobs[i]), bool(done[i])) for i in range(rows)]
