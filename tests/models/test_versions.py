"""The GPU machine runs other library versions than this one (torch 2.11, transformers 5.17):
the code that talks to APIs which changed between releases adapts to what it finds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import torch

from reasonbench.infer.decode import kv_cache
from reasonbench.models.varlen import _kv, varlen_options


def v2_9(query, key, value, cu_seq_q, cu_seq_k, max_q, max_k, is_causal=False, return_aux=None): ...


def v2_10(query, key, value, cu_seq_q, cu_seq_k, max_q, max_k, *, return_aux=None, scale=None,
          window_size=(-1, -1)):  # fmt: skip
    ...


def v2_12(query, key, value, cu_seq_q, cu_seq_k, max_q, max_k, *, return_aux=None, scale=None,
          window_size=(-1, -1), enable_gqa=False, seqused_k=None):  # fmt: skip
    ...


def test_varlen_options_follow_the_signature() -> None:
    dim = 16
    assert varlen_options(v2_9, None, dim) == {"is_causal": True}
    assert varlen_options(v2_9, dim**-0.5, dim) == {"is_causal": True}
    with pytest.raises(TypeError, match="no scale"):
        varlen_options(v2_9, 0.3, dim)
    assert varlen_options(v2_10, 0.3, dim) == {"window_size": (-1, 0), "scale": 0.3}
    assert varlen_options(v2_12, 0.3, dim) == {
        "window_size": (-1, 0), "scale": 0.3, "enable_gqa": True,
    }  # fmt: skip


def test_grouped_heads_are_repeated_only_without_enable_gqa() -> None:
    q = torch.randn(5, 4, 8)  # [tokens, heads, dim]
    k, v = torch.randn(5, 2, 8), torch.randn(5, 2, 8)
    k2, v2 = _kv(v2_10, q, k, v)
    assert k2.shape == (5, 4, 8) and v2.shape == (5, 4, 8)
    for head in range(4):  # query head h reads key/value head h // groups
        assert torch.equal(k2[:, head], k[:, head // 2]) and torch.equal(
            v2[:, head], v[:, head // 2]
        )
    assert _kv(v2_12, q, k, v) == (k, v)


@dataclass
class New:
    logits: Any = None
    cache: Any = None


@dataclass
class Old:
    logits: Any = None
    past_key_values: Any = None


def test_kv_cache_keyword_follows_the_output() -> None:
    assert kv_cache(New(cache="kv")) == {"cache": "kv"}  # transformers 5.24
    assert kv_cache(Old(past_key_values="kv")) == {"past_key_values": "kv"}  # 5.17

    @dataclass
    class Neither:
        logits: Any = None

    with pytest.raises(TypeError, match="no KV cache"):
        kv_cache(Neither())
