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

import inspect
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
        except (ImportError, TypeError, RuntimeError, NotImplementedError) as exc:
            # a torch without the kernel (< 2.9), a signature we do not know, a GPU it lacks
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
    from torch.nn.attention import varlen

    kernel: Any = varlen.varlen_attn  # its signature changed between torch releases
    q, k, v = (t[0].transpose(0, 1) for t in (query, key, value))  # [tokens, heads, dim]
    k, v = _kv(kernel, q, k, v)
    cu = cu_seq_lens.to(torch.int32)
    options = varlen_options(kernel, scaling, q.shape[-1])
    out = kernel(q, k, v, cu, cu, max_length, max_length, **options)
    assert isinstance(out, torch.Tensor)  # a tuple only when return_aux is requested
    return out.unsqueeze(0)  # [1, tokens, heads, dim]


def _parameters(fn: Any) -> set[str]:
    return set(inspect.signature(fn).parameters)


def varlen_options(fn: Any, scaling: float | None, head_dim: int) -> dict[str, Any]:
    """Causal attention in the keywords this torch's ``varlen_attn`` takes: 2.9 has
    ``is_causal``; 2.10 ``scale`` and ``window_size`` ((-1, 0) = causal); 2.12 adds
    ``enable_gqa`` (grouped-query heads without copies)."""
    params = _parameters(fn)
    options: dict[str, Any] = {}
    if "window_size" in params:
        options["window_size"] = (-1, 0)
    elif "is_causal" in params:
        options["is_causal"] = True
    else:
        raise TypeError("varlen_attn takes neither window_size nor is_causal")
    if "scale" in params:
        options["scale"] = scaling
    elif scaling is not None and abs(scaling - head_dim**-0.5) > 1e-12:
        raise TypeError("varlen_attn takes no scale, and the model's is not 1/sqrt(head_dim)")
    if "enable_gqa" in params:
        options["enable_gqa"] = True
    return options


def _kv(
    fn: Any, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Key and value heads repeated to the query's when the kernel cannot group them itself."""
    groups = q.shape[1] // k.shape[1]
    if groups == 1 or "enable_gqa" in _parameters(fn):
        return k, v
    return k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)


def _no_mask(*args: Any, **kwargs: Any) -> None:
    return None  # sequence boundaries travel as cu_seq_lens, causality is the kernel's


def register() -> None:
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface

    AttentionInterface.register(NAME, varlen_attention_forward)
    AttentionMaskInterface.register(NAME, _no_mask)
