"""The loss on target tokens only (LoRA itself is made in :mod:`reasonbench.models.adapter`).

``TargetTokenLoss`` runs the decoder, then the output head on just the positions that predict a
target token: the head of a 150k-word vocabulary applied to every prompt token would cost more
memory than the whole rest of a step, and prompt logits never enter the loss anyway. It returns
the *sum* of token losses, so the caller can normalise by the target tokens of the whole
optimizer step across micro-batches and processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from reasonbench.models.adapter import add_lora
from reasonbench.models.tuning import get_tuning
from reasonbench.train.batching import IGNORE, MicroBatch

__all__ = ["TargetTokenLoss", "add_lora", "batch_inputs", "trainable_state"]


class TargetTokenLoss(nn.Module):
    """Sum of cross-entropy over target tokens; the module ``accelerate`` wraps for DDP."""

    def __init__(self, peft_model: Any, causal_lm: Callable[[Any], Any] | None = None) -> None:
        super().__init__()
        self.peft_model = peft_model  # the trainable module: a peft model, or the LM itself
        # the tuning's way to its causal LM (models/tuning.py); LoRA's when not given
        self.causal_lm = causal_lm or get_tuning("lora").causal_lm

    def forward(
        self,
        input_ids: torch.Tensor,
        position_ids: torch.Tensor,
        labels: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        cu_seq_lens: torch.Tensor | None = None,
        max_length: int = 0,
    ) -> torch.Tensor:
        causal_lm = self.causal_lm(self.peft_model)
        packed: dict[str, Any] = {}
        if cu_seq_lens is not None:  # flash-attention keyword names (models/varlen.py)
            packed = {
                "cu_seq_lens_q": cu_seq_lens,
                "cu_seq_lens_k": cu_seq_lens,
                "max_length_q": max_length,
                "max_length_k": max_length,
            }
        hidden = causal_lm.get_decoder()(
            input_ids=input_ids,
            attention_mask=attention_mask,
            position_ids=position_ids,
            use_cache=False,
            **packed,
        ).last_hidden_state
        targets = labels[:, 1:]
        keep = targets != IGNORE
        logits = causal_lm.get_output_embeddings()(hidden[:, :-1][keep]).float()
        return F.cross_entropy(logits, targets[keep], reduction="sum")


def batch_inputs(batch: MicroBatch) -> dict[str, Any]:
    return {
        "input_ids": batch.input_ids,
        "position_ids": batch.position_ids,
        "labels": batch.labels,
        "attention_mask": batch.attention_mask,
        "cu_seq_lens": batch.cu_seq_lens,
        "max_length": batch.max_length,
    }


def trainable_state(peft_model: Any) -> dict[str, torch.Tensor]:
    return {
        name: p.detach().cpu().clone()
        for name, p in peft_model.named_parameters()
        if p.requires_grad
    }
