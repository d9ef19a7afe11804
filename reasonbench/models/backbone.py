"""Backbones load offline: from ``model.path``, the Hugging Face cache, or the local tiny build.

Nothing is downloaded at run time. ``local_files_only`` lookups resolve a cached snapshot; when the
weights are absent the error says how to fetch them on a connected machine.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from reasonbench.registry import Registry

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
WEIGHT_SUFFIXES = (".safetensors", ".bin")


class BackboneNotFound(FileNotFoundError):
    """Backbone weights are not on this machine; the message says how to fetch them."""


@dataclass(frozen=True)
class Backbone:
    name: str
    path: Path
    identity: str  # hash of config, tokenizer and weight files' names and sizes

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "path": str(self.path), "identity": self.identity}


def fetch_hint(hf_id: str) -> str:
    return (
        "Nothing is downloaded at run time. On a machine with internet access run\n"
        f"    hf download {hf_id}        (or: huggingface-cli download {hf_id})\n"
        "then copy the Hugging Face cache (~/.cache/huggingface/hub, or $HF_HOME/hub) to this "
        f"machine, or copy the model directory and pass model.path=/path/to/{hf_id.split('/')[-1]}"
    )


def _hf_snapshot(hf_id: str, revision: str | None, cache_dir: str | None) -> Path:
    from huggingface_hub import constants, snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    try:
        found = snapshot_download(
            hf_id, revision=revision, cache_dir=cache_dir, local_files_only=True
        )
    except (LocalEntryNotFoundError, FileNotFoundError, OSError):
        raise BackboneNotFound(
            f"backbone {hf_id} is not in the Hugging Face cache "
            f"({cache_dir or constants.HF_HUB_CACHE}) and model.path is not set.\n"
            f"{fetch_hint(hf_id)}"
        ) from None
    return Path(str(found))


def identity(path: Path) -> str:
    """Cheap, stable identity of a model directory (no need to hash gigabytes of weights:
    a snapshot's config and file sizes change whenever its weights do in practice)."""
    digest = hashlib.sha256()
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json"):
        file = path / name
        if file.is_file():
            digest.update(name.encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest())
    for file in sorted(path.iterdir()):
        if file.name.endswith(WEIGHT_SUFFIXES):
            digest.update(f"{file.name}:{file.stat().st_size}".encode())
    return digest.hexdigest()


# A backbone source (``model.source`` names it): (the model config, the benchmark directory or
# None) -> the directory of the backbone's files. A plug-in registers one more with
# ``BACKBONE_SOURCES.register(name, loader)``; nothing else names the sources.
BackboneSource = Callable[[Mapping[str, Any], Path | None], Path]
BACKBONE_SOURCES: Registry[BackboneSource] = Registry("model.source")


@BACKBONE_SOURCES.register("hf")
def hf_source(model_cfg: Mapping[str, Any], data_dir: Path | None = None) -> Path:
    """A Hugging Face checkpoint: ``model.path``, or ``hf_id`` in the local Hugging Face cache."""
    hf_id = str(model_cfg["hf_id"])
    local = model_cfg.get("path")
    if not local:
        return _hf_snapshot(hf_id, model_cfg.get("revision"), model_cfg.get("hf_cache"))
    path = Path(str(local))
    if not (path / "config.json").is_file():
        raise BackboneNotFound(
            f"model.path={path} has no config.json (not a model directory).\n{fetch_hint(hf_id)}"
        )
    return path


# lazily: the tiny build imports the tokenizers trainer only when a run asks for it
BACKBONE_SOURCES.register_lazy("tiny", "reasonbench.models.tiny:tiny_source")


def resolve_backbone(model_cfg: Mapping[str, Any], data_dir: Path | None = None) -> Backbone:
    """Where the backbone's files are, by the registered loader ``model.source`` names (``hf``
    by default; ``tiny`` builds once from ``data_dir``)."""
    path = BACKBONE_SOURCES.get(str(model_cfg.get("source", "hf")))(model_cfg, data_dir)
    return Backbone(str(model_cfg["name"]), path, identity(path))


def backbone_at(path: Path | str, name: str | None = None) -> Backbone:
    """A model directory given by path (a judge's ``path``, a run's recorded backbone)."""
    path = Path(path)
    if not (path / "config.json").is_file():
        raise BackboneNotFound(f"{path} is not a model directory (no config.json)")
    return Backbone(name or path.name, path, identity(path))


def load_tokenizer(backbone: Backbone) -> Any:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(backbone.path, local_files_only=True)
    if tokenizer.eos_token_id is None:
        raise ValueError(f"tokenizer of {backbone.name} has no end-of-sequence token")
    if tokenizer.pad_token_id is None:  # padding never reaches the loss; any id will do
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(backbone: Backbone, dtype: str = "fp32", attn_implementation: str = "sdpa") -> Any:
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging

    from reasonbench.models import varlen

    varlen.register()
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; one of {sorted(DTYPES)}")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # per-shard bars drown the training log
    # peft still calls the old name; the warning is the libraries' business, not the user's
    warnings.filterwarnings(
        "ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning
    )
    return AutoModelForCausalLM.from_pretrained(
        backbone.path,
        dtype=DTYPES[dtype],
        attn_implementation=attn_implementation,
        local_files_only=True,
    )
