"""Qwen3 architectures by name, for random-init models (the CPU tiny model, GPU throughput runs).

The real backbones' numbers are copied from their published ``config.json`` so a random-init model
costs exactly what the pretrained one does (same shapes, same vocabulary size) without a download.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transformers import Qwen3Config

ARCHITECTURES: dict[str, dict[str, Any]] = {
    # a few layers and a small width: trains and decodes in seconds on a CPU
    "tiny": {
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": True,
    },
    # the CPU receipt predictor (conf/model/small_cpu.yaml), trained from scratch on a 2-core
    # machine: narrow and deep, since at equal tokens a 256-wide 4-layer model learnt no more and
    # cost 1.5x the time per token (docs/training.md, "A model that learns on CPU")
    "small_cpu": {
        "hidden_size": 128,
        "intermediate_size": 384,
        "num_hidden_layers": 6,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 32,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": True,
    },
    # smaller still: the rehearsal's stand-ins for both backbones (conf/model/tiny_*.yaml), so
    # every run of the protocol trains and predicts on a shared 2-core CPU in minutes
    "micro": {
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 16,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": True,
    },
    "qwen3_0.6b": {
        "hidden_size": 1024,
        "intermediate_size": 3072,
        "num_hidden_layers": 28,
        "num_attention_heads": 16,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "max_position_embeddings": 40960,
        "tie_word_embeddings": True,
        "vocab_size": 151936,
    },
    "qwen3_1.7b": {
        "hidden_size": 2048,
        "intermediate_size": 6144,
        "num_hidden_layers": 28,
        "num_attention_heads": 16,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "max_position_embeddings": 40960,
        "tie_word_embeddings": True,
        "vocab_size": 151936,
    },
}


def arch_fields(arch: str | Mapping[str, Any]) -> dict[str, Any]:
    """The explicit fields of ``arch`` (a name above, or fields already)."""
    if isinstance(arch, str):
        if arch not in ARCHITECTURES:
            raise KeyError(f"unknown architecture {arch!r}; known: {sorted(ARCHITECTURES)}")
        return dict(ARCHITECTURES[arch])
    return dict(arch)


def qwen3_config(
    arch: str | dict[str, Any], vocab_size: int, pad_token_id: int, eos_token_id: int
) -> Qwen3Config:
    """A Qwen3 config for ``arch`` (a name above or explicit fields). The vocabulary is at least
    the tokenizer's, and as large as the named architecture's, so the head costs the same."""
    fields = arch_fields(arch)
    fields["vocab_size"] = max(int(fields.get("vocab_size", 0)), vocab_size)
    return Qwen3Config(
        **fields,
        rope_parameters={"rope_type": "default", "rope_theta": 1_000_000.0},
        rms_norm_eps=1e-6,
        pad_token_id=pad_token_id,
        eos_token_id=eos_token_id,
        bos_token_id=None,
        use_cache=True,
    )
