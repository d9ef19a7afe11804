"""LoRA on a causal LM (peft), and the loss on target tokens only.

``TargetTokenLoss`` runs the decoder, then the output head on just the positions that predict a
target token: the head of a 150k-word vocabulary applied to every prompt token would cost more
memory than the whole rest of a step, and prompt logits never enter the loss anyway. It returns
the *sum* of token losses, so the caller can normalise by the target tokens of the whole
optimizer step across micro-batches and processes.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from reasonbench.train.batching import IGNORE, MicroBatch


def add_lora(model: Any, lora: Mapping[str, Any], gradient_checkpointing: bool) -> Any:
    from peft import LoraConfig, get_peft_model

    # peft still calls transformers' deprecated name; the warning is not the user's business
    warnings.filterwarnings(
        "ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning
    )

    if gradient_checkpointing:
        # non-reentrant checkpointing works with frozen inputs and with DDP's no_sync
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    config = LoraConfig(
        r=int(lora["r"]),
        lora_alpha=int(lora["alpha"]),
        lora_dropout=float(lora["dropout"]),
        target_modules=list(lora["target_modules"]),
        bias="none",
        task_type="CAUSAL_LM",
    )
    return get_peft_model(model, config)


class TargetTokenLoss(nn.Module):
    """Sum of cross-entropy over target tokens; the module ``accelerate`` wraps for DDP."""

    def __init__(self, peft_model: Any) -> None:
        super().__init__()
        self.peft_model = peft_model

    def forward(
        self,
        input_ids: torch.Tensor,
        position_ids: torch.Tensor,
        labels: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        cu_seq_lens: torch.Tensor | None = None,
        max_length: int = 0,
    ) -> torch.Tensor:
        causal_lm = self.peft_model.get_base_model()  # LoRA layers are injected in place
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
