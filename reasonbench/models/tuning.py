"""How a run fine-tunes its backbone: LoRA (a pretrained backbone) or every weight (a model
initialised from scratch, whose random weights a low-rank update cannot make useful).

A tuning kind is one registered :class:`Tuning` (``model.tuning`` names it): how the trainable
module is made, where its causal LM is, how the trained weights are saved into a run's
``adapter/`` directory, how they are loaded for decoding, and which files name their content. It
lives in ``models`` so ``train`` (which saves) and ``infer``/``judges`` (which load) share it.

* ``lora``: a peft adapter (``adapter_config.json`` + ``adapter_model.safetensors``) on the frozen
  backbone; see :mod:`reasonbench.models.adapter`.
* ``full``: the whole model (``config.json`` + ``model.safetensors`` + the tokenizer, a directory
  ``AutoModelForCausalLM.from_pretrained`` loads): the backbone only gave the architecture, the
  tokenizer and the initial weights.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.models.adapter import (
    ADAPTER_CONFIG,
    ADAPTER_WEIGHTS,
    add_lora,
    canonical_config,
    load_adapted,
    write_canonical_config,
)
from reasonbench.registry import Registry

__all__ = ["TUNINGS", "Tuning", "get_tuning", "weights_hash"]


@dataclass(frozen=True)
class Tuning:
    name: str
    description: str
    # (causal LM, the run's ``lora`` settings, gradient checkpointing) -> the trainable module
    prepare: Callable[[Any, Mapping[str, Any], bool], Any]
    causal_lm: Callable[[Any], Any]  # trainable module -> the causal LM whose weights it trains
    # (trainable module, tokenizer, staging directory, backbone name) -> writes the weights
    write: Callable[[Any, Any, Path, str], None]
    # (backbone directory, weights directory) -> the directory whose causal LM decoding loads
    model_dir: Callable[[Path, Path], Path]
    # (that causal LM, the weights directory, merge LoRA into it) -> the model for decoding
    adapt: Callable[[Any, Path, bool], Any]
    config_file: str  # JSON, hashed in canonical form (key order and set order are noise)
    weights_file: str  # hashed byte for byte

    def check(self, directory: Path) -> None:
        """A clear error when ``directory`` lacks this tuning's files (before any loader's)."""
        for name in (self.config_file, self.weights_file):
            if not (directory / name).is_file():
                raise FileNotFoundError(
                    f"{directory / name} not found: is {directory} a trained adapter "
                    f"(model.tuning={self.name})?"
                )


TUNINGS: Registry[Tuning] = Registry("model.tuning")


def get_tuning(name: str) -> Tuning:
    return TUNINGS.get(name)


def weights_hash(tuning: Tuning, directory: Path) -> str:
    """sha256 over the canonical config and the weights' bytes: part of every prediction cache
    key, the same for the same weights whatever process (and hash seed) saved them."""
    tuning.check(directory)
    config: dict[str, Any] = json.loads((directory / tuning.config_file).read_text("utf-8"))
    parts = (
        (tuning.config_file, json.dumps(canonical_config(config), sort_keys=True).encode()),
        (tuning.weights_file, (directory / tuning.weights_file).read_bytes()),
    )
    digest = hashlib.sha256()
    for name, data in parts:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def save_trained(tuning: Tuning, module: Any, tokenizer: Any, out_dir: Path, base_name: str) -> str:
    """The trained weights (``adapter/``) and the tokenizer (``tokenizer/``), each written to a
    staging directory and renamed into place; returns the weights' hash."""
    for name, write in (
        ("adapter", lambda path: tuning.write(module, tokenizer, path, base_name)),
        ("tokenizer", lambda path: tokenizer.save_pretrained(str(path))),
    ):
        staging = out_dir / f".{name}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        write(staging)
        shutil.rmtree(out_dir / name, ignore_errors=True)
        staging.rename(out_dir / name)
    return weights_hash(tuning, out_dir / "adapter")


# --- lora ----------------------------------------------------------------------------------------


def _lora_write(module: Any, tokenizer: Any, path: Path, base_name: str) -> None:
    del tokenizer  # the backbone's (a copy goes to the run's tokenizer/)
    # the base path in adapter_config.json would make the hash depend on where the backbone lies
    module.peft_config["default"].base_model_name_or_path = base_name
    module.save_pretrained(str(path), save_embedding_layers=False)
    write_canonical_config(path)  # set-valued fields in hash-seed order otherwise


def _lora_prepare(model: Any, lora: Mapping[str, Any], checkpointing: bool) -> Any:
    return add_lora(model, lora, checkpointing)


def _lora_adapt(model: Any, directory: Path, merge: bool) -> Any:
    return load_adapted(model, directory, merge)


TUNINGS.register(
    "lora",
    Tuning(
        name="lora",
        description="a peft LoRA adapter on the frozen backbone (lora.* settings)",
        prepare=_lora_prepare,
        causal_lm=lambda module: module.get_base_model(),  # LoRA layers are injected in place
        write=_lora_write,
        model_dir=lambda backbone, weights: backbone,
        adapt=_lora_adapt,
        config_file=ADAPTER_CONFIG,
        weights_file=ADAPTER_WEIGHTS,
    ),
)


# --- full ----------------------------------------------------------------------------------------


def _full_prepare(model: Any, lora: Mapping[str, Any], checkpointing: bool) -> Any:
    del lora  # every weight trains: the LoRA settings do not apply
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    for parameter in model.parameters():
        parameter.requires_grad_(True)
    return model


def _full_write(module: Any, tokenizer: Any, path: Path, base_name: str) -> None:
    module.config.name_or_path = base_name  # not where the backbone happened to lie
    module.save_pretrained(str(path), safe_serialization=True)
    # a complete model directory: any transformers user (or harness) loads it by its path
    tokenizer.save_pretrained(str(path))


def _full_adapt(model: Any, directory: Path, merge: bool) -> Any:
    del directory, merge  # the model was loaded from the weights: nothing to apply or fold
    return model.eval()


TUNINGS.register(
    "full",
    Tuning(
        name="full",
        description="every weight trains (a model initialised from scratch); saved whole",
        prepare=_full_prepare,
        causal_lm=lambda module: module,
        write=_full_write,
        model_dir=lambda backbone, weights: weights,
        adapt=_full_adapt,
        config_file="config.json",
        weights_file="model.safetensors",
    ),
)
