"""LoRA adapters on disk: their identity (hash) and loading them onto a backbone.

An adapter is peft's ``adapter_config.json`` plus ``adapter_model.safetensors``. Its hash enters
every prediction cache key, so it must name the adapter's *content*: peft keeps some config fields
as Python sets (``target_modules``, ``exclude_modules``) and writes them as lists in set
iteration order, which follows ``PYTHONHASHSEED`` — the same weights saved by two processes would
get two hashes and miss the cache. The hash therefore covers the config as canonical JSON (keys
sorted, set-valued fields sorted) and the weights file's bytes; :func:`write_canonical_config`
rewrites the config file in that form when a run saves its adapter, so the file's bytes do not
depend on the hash seed either.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.io import dumps_json, write_text

__all__ = [
    "ADAPTER_CONFIG",
    "ADAPTER_FILES",
    "ADAPTER_WEIGHTS",
    "SET_VALUED",
    "adapter_hash",
    "canonical_config",
    "load_adapted",
    "save_adapter",
    "write_canonical_config",
]

ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"
ADAPTER_FILES = (ADAPTER_CONFIG, ADAPTER_WEIGHTS)
SET_VALUED = ("target_modules", "exclude_modules")  # sets in peft's LoraConfig: order is noise


def canonical_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The config with every set-valued field as a sorted list (a regex string stays as is)."""
    out = dict(config)
    for key in SET_VALUED:
        if isinstance(out.get(key), list | tuple | set | frozenset):
            out[key] = sorted(out[key])
    return out


def _config_of(adapter_dir: Path) -> dict[str, Any]:
    path = adapter_dir / ADAPTER_CONFIG
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: is {adapter_dir} a trained adapter?")
    config: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return config


def adapter_hash(adapter_dir: Path) -> str:
    """sha256 over the canonical config and the weights' bytes: part of every prediction cache
    key, the same for the same adapter whatever process (and hash seed) saved it."""
    weights = adapter_dir / ADAPTER_WEIGHTS
    if not weights.is_file():
        raise FileNotFoundError(f"{weights} not found: is {adapter_dir} a trained adapter?")
    config = json.dumps(canonical_config(_config_of(adapter_dir)), sort_keys=True).encode()
    digest = hashlib.sha256()
    for name, data in ((ADAPTER_CONFIG, config), (ADAPTER_WEIGHTS, weights.read_bytes())):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def write_canonical_config(adapter_dir: Path) -> None:
    """Rewrite ``adapter_config.json`` canonically (atomically), so its bytes are reproducible."""
    write_text(adapter_dir / ADAPTER_CONFIG, dumps_json(canonical_config(_config_of(adapter_dir))))


def load_adapted(base: Any, adapter_dir: Path, merge: bool) -> Any:
    """``base`` (a loaded causal LM) with the adapter applied for inference; ``merge`` folds the
    LoRA weights into the backbone (one matmul per projection instead of three: faster decoding,
    the same outputs up to rounding)."""
    from peft import PeftModel

    _config_of(adapter_dir)  # a clear error before peft's own
    model = PeftModel.from_pretrained(base, str(adapter_dir), is_trainable=False)
    if merge:
        model = model.merge_and_unload()
    return model.eval()


def save_adapter(peft_model: Any, tokenizer: Any, out_dir: Path, base_name: str) -> str:
    """Adapter and tokenizer, each renamed into place; returns the adapter hash."""
    # the base path in adapter_config.json would make the hash depend on where the backbone lies
    peft_model.peft_config["default"].base_model_name_or_path = base_name
    for name, save in (
        ("adapter", peft_model.save_pretrained),
        ("tokenizer", tokenizer.save_pretrained),
    ):
        staging = out_dir / f".{name}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        save(str(staging), **({"save_embedding_layers": False} if name == "adapter" else {}))
        if name == "adapter":  # set-valued fields in hash-seed order otherwise
            write_canonical_config(staging)
        shutil.rmtree(out_dir / name, ignore_errors=True)
        staging.rename(out_dir / name)
    return adapter_hash(out_dir / "adapter")
