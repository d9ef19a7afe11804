"""Backbones: offline loading of Qwen3 checkpoints and the locally built tiny model."""

from reasonbench.models.architectures import ARCHITECTURES, qwen3_config
from reasonbench.models.backbone import (
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

__all__ = [
    "ANSWER_CUE",
    "ARCHITECTURES",
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
