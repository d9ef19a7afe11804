"""LoRA adapters on disk: their canonical config and loading them onto a backbone.

An adapter is peft's ``adapter_config.json`` plus ``adapter_model.safetensors``. Its hash
(:func:`reasonbench.models.tuning.weights_hash`, the ``lora`` tuning's files) enters every
prediction cache key, so it must name the adapter's *content*: peft keeps some config fields as
Python sets (``target_modules``, ``exclude_modules``) and writes them as lists in set iteration
order, which follows ``PYTHONHASHSEED`` — the same weights saved by two processes would get two
hashes and miss the cache. The hash therefore covers the config as canonical JSON
(:func:`canonical_config`: keys sorted, set-valued fields sorted) and the weights file's bytes;
:func:`write_canonical_config` rewrites the config file in that form when a run saves its
adapter, so the file's bytes do not depend on the hash seed either.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.io import dumps_json, write_text

__all__ = [
    "ADAPTER_CONFIG",
    "ADAPTER_FILES",
    "ADAPTER_WEIGHTS",
    "SET_VALUED",
    "add_lora",
    "canonical_config",
    "load_adapted",
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
    saved = list(lora.get("modules_to_save") or [])
    config = LoraConfig(
        r=int(lora["r"]),
        lora_alpha=int(lora["alpha"]),
        lora_dropout=float(lora["dropout"]),
        target_modules=list(lora["target_modules"]),
        # full trainable copies of these modules, saved with the adapter: a backbone without
        # pretraining needs its norms (the scale of its logits) or embeddings to learn too
        modules_to_save=saved or None,
        # a trained copy of tied embeddings must stay the output head too
        ensure_weight_tying=bool(saved),
        bias="none",
        task_type="CAUSAL_LM",
    )
    return get_peft_model(model, config)
