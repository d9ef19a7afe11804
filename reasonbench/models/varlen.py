"""Variable-length attention for padding-free training, registered with transformers.

Padding-free batches concatenate the sequences of a micro-batch into one row and pass their
boundaries as ``cu_seq_lens_q/k`` and ``max_length_q/k`` (the keyword names of transformers'
flash-attention path, so ``attn_implementation=flash_attention_2`` accepts the same batches). This
implementation, ``reasonbench_varlen``, needs no extra package: on CUDA it calls PyTorch's own
flash kernel (``torch.nn.attention.varlen.varlen_attn``); elsewhere it runs causal SDPA per
sequence. Either way each sequence attends only to itself and no compute goes to padding or to
masked-out pairs, unlike a block-diagonal dense mask whose cost grows with the square of the row.
"""

from __future__ import annotations

import warnings
from typing import Any

import torch
import torch.nn.functional as F

NAME = "reasonbench_varlen"


def varlen_attention_forward(
    module: torch.nn.Module,
    query: torch.Tensor,  # [1, heads, tokens, dim]
    key: torch.Tensor,  # [1, kv heads, tokens, dim]
    value: torch.Tensor,
    attention_mask: torch.Tensor | None,
    scaling: float | None = None,
    cu_seq_lens_q: torch.Tensor | None = None,
    max_length_q: int | None = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, None]:
    if cu_seq_lens_q is None or query.shape[0] != 1 or attention_mask is not None:
        raise ValueError(
            f"{NAME} attention serves padding-free training only: one packed row with "
            "cu_seq_lens_q and no attention mask (use attn_implementation=sdpa elsewhere)"
        )
    if query.is_cuda and _KERNEL["usable"]:
        try:
            return _flash(query, key, value, cu_seq_lens_q, int(max_length_q or 0), scaling), None
        except (RuntimeError, NotImplementedError) as exc:  # e.g. a GPU the kernel lacks
            _KERNEL["usable"] = False
            warnings.warn(
                f"{NAME}: PyTorch's varlen kernel failed ({exc}); using SDPA per sequence",
                stacklevel=2,
            )
    bounds = cu_seq_lens_q.tolist()
    pieces = [
        F.scaled_dot_product_attention(
            query[:, :, a:b],
            key[:, :, a:b],
            value[:, :, a:b],
            is_causal=True,
            scale=scaling,
            enable_gqa=True,
        )  # fmt: skip
        for a, b in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    return torch.cat(pieces, dim=2).transpose(1, 2).contiguous(), None


_KERNEL = {"usable": True}


def _flash(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    cu_seq_lens: torch.Tensor,
    max_length: int,
    scaling: float | None,
) -> torch.Tensor:
    from torch.nn.attention.varlen import varlen_attn

    q, k, v = (t[0].transpose(0, 1) for t in (query, key, value))  # [tokens, heads, dim]
    cu = cu_seq_lens.to(torch.int32)
    out = varlen_attn(
        q, k, v, cu, cu, max_length, max_length, scale=scaling, window_size=(-1, 0), enable_gqa=True
    )
    assert isinstance(out, torch.Tensor)  # a tuple only when return_aux is requested
    return out.unsqueeze(0)  # [1, tokens, heads, dim]


def _no_mask(*args: Any, **kwargs: Any) -> None:
    return None  # sequence boundaries travel as cu_seq_lens, causality is the kernel's


def register() -> None:
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface

    AttentionInterface.register(NAME, varlen_attention_forward)
    AttentionMaskInterface.register(NAME, _no_mask)
