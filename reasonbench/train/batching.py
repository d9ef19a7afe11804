"""Micro-batches for one optimizer step: padded, length-grouped, or padding-free.

The examples of an optimizer step are fixed by the seed (``loop.step_examples``); the batching
mode only decides how they are laid out in memory, so the three modes compute the same loss and
gradient up to floating-point rounding. A micro-batch holds at most ``micro_batch_tokens`` tokens
(rows x row length, padding included), which bounds activation memory.

* ``padded``: examples in step order, each row padded to the longest of its micro-batch.
* ``length_grouped``: the step's examples sorted by length first, so rows of a micro-batch are
  similar and padding is small.
* ``padding_free``: the micro-batch's sequences concatenated into one row, no padding at all;
  positions restart at 0 per sequence and the boundaries go to the attention kernel as
  ``cu_seq_lens`` (``reasonbench.models.varlen``), so no sequence attends to another.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from reasonbench.models.prompting import Encoded

MODES = ("padded", "length_grouped", "padding_free")
IGNORE = -100


@dataclass(frozen=True)
class MicroBatch:
    input_ids: torch.Tensor  # [rows, length]
    position_ids: torch.Tensor
    labels: torch.Tensor  # IGNORE outside targets
    attention_mask: torch.Tensor | None  # None for a packed row
    tokens: int  # real tokens
    padded_tokens: int  # rows x length
    cu_seq_lens: torch.Tensor | None = None  # packed row: sequence boundaries [0, l1, l1+l2, ...]
    max_length: int = 0  # packed row: longest sequence

    @property
    def target_tokens(self) -> int:
        # a label at position i is predicted from position i - 1; a row's first label is never set
        return int((self.labels[:, 1:] != IGNORE).sum())

    def to(self, device: torch.device | str) -> MicroBatch:
        mask = None if self.attention_mask is None else self.attention_mask.to(device)
        cu = None if self.cu_seq_lens is None else self.cu_seq_lens.to(device)
        return MicroBatch(
            self.input_ids.to(device),
            self.position_ids.to(device),
            self.labels.to(device),
            mask,
            self.tokens,
            self.padded_tokens,
            cu,
            self.max_length,
        )


def _chunks(lengths: Sequence[int], order: Sequence[int], budget: int) -> list[list[int]]:
    """Greedy: grow a chunk while (members x longest member) stays within ``budget``."""
    out: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for i in order:
        grown = max(longest, lengths[i])
        if current and grown * (len(current) + 1) > budget:
            out.append(current)
            current, grown = [], lengths[i]
        current.append(i)
        longest = grown
    if current:
        out.append(current)
    return out


def _concatenated(lengths: Sequence[int], budget: int) -> list[list[int]]:
    """Greedy in step order: grow a chunk while its total length stays within ``budget``."""
    out: list[list[int]] = []
    current: list[int] = []
    total = 0
    for i, length in enumerate(lengths):
        if current and total + length > budget:
            out.append(current)
            current, total = [], 0
        current.append(i)
        total += length
    if current:
        out.append(current)
    return out


def layout(
    examples: Sequence[Encoded], mode: str, micro_batch_tokens: int
) -> list[list[list[int]]]:
    """Micro-batches as lists of rows, each row a list of indices into ``examples``."""
    lengths = [e.length for e in examples]
    if mode == "padded":
        return [[[i] for i in c] for c in _chunks(lengths, range(len(lengths)), micro_batch_tokens)]
    if mode == "length_grouped":
        order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
        return [[[i] for i in c] for c in _chunks(lengths, order, micro_batch_tokens)]
    if mode == "padding_free":
        return [[chunk] for chunk in _concatenated(lengths, micro_batch_tokens)]
    raise ValueError(f"unknown batching mode {mode!r}; one of {list(MODES)}")


def collate(
    examples: Sequence[Encoded], rows: Sequence[Sequence[int]], pad_id: int, packed: bool
) -> MicroBatch:
    if packed and len(rows) != 1:
        raise ValueError("a padding-free micro-batch is one row")
    width = max(sum(examples[i].length for i in row) for row in rows)
    shape = (len(rows), width)
    input_ids = torch.full(shape, pad_id, dtype=torch.long)
    labels = torch.full(shape, IGNORE, dtype=torch.long)
    positions = torch.zeros(shape, dtype=torch.long)
    mask = torch.zeros(shape, dtype=torch.long)
    tokens = 0
    for r, row in enumerate(rows):
        at = 0
        for i in row:
            e = examples[i]
            ids = torch.tensor(e.input_ids, dtype=torch.long)
            input_ids[r, at : at + e.length] = ids
            labels[r, at + e.prompt_length : at + e.length] = ids[e.prompt_length :]
            positions[r, at : at + e.length] = torch.arange(e.length)
            mask[r, at : at + e.length] = 1
            at += e.length
        tokens += at
    if not packed:
        return MicroBatch(input_ids, positions, labels, mask, tokens, len(rows) * width)
    lengths = [examples[i].length for i in rows[0]]
    cu = torch.tensor([0, *itertools.accumulate(lengths)], dtype=torch.int32)
    return MicroBatch(input_ids, positions, labels, None, tokens, width, cu, max(lengths))


def micro_batches(
    examples: Sequence[Encoded], mode: str, micro_batch_tokens: int, pad_id: int
) -> list[MicroBatch]:
    plan = layout(examples, mode, micro_batch_tokens)
    return [collate(examples, rows, pad_id, packed=mode == "padding_free") for rows in plan]
