"""The generation cache of ``reasonbench predict``: the project's answer cache
(:mod:`reasonbench.cache`) with predict's key — sha256 of (model identity, adapter hash, prompt
hash, decoding config)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.cache import GenerationCache, content_key, read_entries, sha256_text

__all__ = ["GenerationCache", "cache_key", "read_entries", "sha256_text"]


def cache_key(model: str, adapter: str, prompt: str, decoding: Mapping[str, Any]) -> str:
    payload = {
        "model": model,
        "adapter": adapter,
        "prompt": sha256_text(prompt),
        "decoding": dict(decoding),
    }
    return content_key(payload)
