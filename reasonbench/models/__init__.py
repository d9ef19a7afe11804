"""Backbones: offline loading of Qwen3 checkpoints and the locally built tiny model.

The names below are loaded on first use (PEP 562): importing a light submodule such as
:mod:`reasonbench.models.prompting` (the answer cue an lm-eval or inspect_ai task formats its
prompts with, in processes that never load a model) must not import torch and transformers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reasonbench.models.architectures import ARCHITECTURES, qwen3_config
    from reasonbench.models.backbone import (
        BACKBONE_SOURCES,
        DTYPES,
        Backbone,
        BackboneNotFound,
        backbone_at,
        load_model,
        load_tokenizer,
        resolve_backbone,
    )
    from reasonbench.models.prompting import (
        ANSWER_CUE,
        Encoded,
        encode_prompt,
        encode_target,
        join,
        model_input,
    )
    from reasonbench.models.tiny import build_tiny

_HOME = {
    "ARCHITECTURES": "architectures",
    "qwen3_config": "architectures",
    "BACKBONE_SOURCES": "backbone",
    "DTYPES": "backbone",
    "Backbone": "backbone",
    "BackboneNotFound": "backbone",
    "backbone_at": "backbone",
    "load_model": "backbone",
    "load_tokenizer": "backbone",
    "resolve_backbone": "backbone",
    "ANSWER_CUE": "prompting",
    "Encoded": "prompting",
    "encode_prompt": "prompting",
    "encode_target": "prompting",
    "join": "prompting",
    "model_input": "prompting",
    "build_tiny": "tiny",
}

__all__ = [
    "ANSWER_CUE",
    "ARCHITECTURES",
    "BACKBONE_SOURCES",
    "DTYPES",
    "Backbone",
    "BackboneNotFound",
    "Encoded",
    "backbone_at",
    "build_tiny",
    "encode_prompt",
    "encode_target",
    "join",
    "load_model",
    "load_tokenizer",
    "model_input",
    "qwen3_config",
    "resolve_backbone",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:  # also how ``from reasonbench.models import varlen`` finds the submodule
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # looked up once
    return value
