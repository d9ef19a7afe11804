"""Typed schemas of the Hydra commands' configs, checked at the CLI edge before anything runs.

Each ``conf/<name>.yaml`` has a dataclass here (registered in :data:`SCHEMAS` under that name)
that says what type each key has; the YAML files keep the defaults and the one-line help
comments. ``dict[str, Any]`` marks a subtree validated elsewhere (a benchmark spec, a judge
factory's arguments). A command without a schema is still checked for unknown keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from omegaconf import MISSING

from reasonbench.registry import Registry

__all__ = ["KEY_READING", "SCHEMAS", "KeyReading"]

SCHEMAS: Registry[type] = Registry("config schema")


@dataclass(frozen=True)
class KeyReading:
    """How the CLI edge reads some of a command's keys (:mod:`reasonbench.cli.config`), where
    Hydra's override grammar would change what the user typed.

    ``verbatim``: the whole text after ``key=`` is the value, exactly as typed — quotes, ``${``,
    commas, ``=`` and brackets included (a command line) — so such a key cannot be swept.
    ``as_text``: a ``true``/``false``, number or (in a list) ``null`` stays the text typed (a
    label ``true``, a version ``1.10``), where Hydra would read True, 1.1 or None.
    ``unswept``: keys a sweep (``-m``) must not vary (the sweep's own folder is named by one).
    """

    verbatim: tuple[str, ...] = ()
    as_text: tuple[str, ...] = ()
    unswept: tuple[str, ...] = ()


KEY_READING: Registry[KeyReading] = Registry("key reading")


class Batching(Enum):
    padded = "padded"
    length_grouped = "length_grouped"
    padding_free = "padding_free"


class Device(Enum):
    auto = "auto"
    cpu = "cpu"


class Precision(Enum):
    bf16 = "bf16"
    fp16 = "fp16"
    fp32 = "fp32"


@dataclass
class ModelSchema:
    name: str = MISSING
    source: str = MISSING
    dtype: Precision = MISSING
    attn_implementation: str = MISSING
    gradient_checkpointing: bool = MISSING
    micro_batch_tokens: int = MISSING
    predict_batch_size: int = MISSING
    # a Hugging Face backbone
    hf_id: str | None = None
    revision: str | None = None
    path: str | None = None
    hf_cache: str | None = None
    # the project's tiny model
    cache_dir: str | None = None
    vocab_size: int | None = None
    arch: str | None = None
    init_seed: int | None = None


@dataclass
class TargetSchema:
    name: str = MISSING


@dataclass
class LoraSchema:
    r: int = MISSING
    alpha: int = MISSING
    dropout: float = MISSING
    target_modules: list[str] = MISSING


@dataclass
class OptimSchema:
    lr: float = MISSING
    weight_decay: float = MISSING
    betas: list[float] = MISSING
    scheduler: str = MISSING
    warmup_ratio: float = MISSING
    epochs: int = MISSING
    max_steps: int | None = None
    batch_size: int = MISSING
    max_grad_norm: float = MISSING


@dataclass
class PermutationSchema:
    rate: float = MISSING
    mode: str = MISSING


@dataclass
class DataSchema:
    name: str = MISSING
    suffix: str = MISSING
    train_split: str = MISSING
    permutation: PermutationSchema = field(default_factory=PermutationSchema)


@dataclass
class GenerateSchema:
    benchmark: dict[str, Any] = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    workers: int = MISSING
    progress: bool = MISSING
    cardinality: bool = MISSING
    freeze: bool = MISSING


@dataclass
class AuditSchema:
    data_dir: str = MISSING
    audit_dir: str | None = None
    overwrite: bool = MISSING
    workers: int = MISSING
    progress: bool = MISSING


@dataclass
class TfidfSchema:
    ngram: list[int] = MISSING
    max_features: int | None = None
    alpha: float = MISSING
    epochs: int = MISSING
    seed: int = MISSING


@dataclass
class BaselinesSchema:
    data_dir: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    methods: list[str] = MISSING
    tfidf: TfidfSchema = field(default_factory=TfidfSchema)


@dataclass
class MethodRoleSchema:
    method: str = MISSING
    target: str | None = None
    model: str | None = None
    data: str | None = None


@dataclass
class AnalyzeSchema:
    methods: dict[str, MethodRoleSchema] = MISSING
    data_dir: str = MISSING
    predictions_dir: str = MISSING
    out: str = MISSING
    overwrite: bool = MISSING
    replicates: int = MISSING
    seed: int = MISSING
    allow_mixed_sources: bool = MISSING
    calibration_maps: list[str] = MISSING
    selective_on: list[str] = MISSING
    reliability_bins: int = MISSING
    calibration_min_points: int = MISSING
    two_plane_splits: list[str] = MISSING
    two_plane_scale: str = MISSING
    progress: bool = MISSING
    comparisons: list[dict[str, Any]] = MISSING


@dataclass
class TablesSchema:
    methods: dict[str, MethodRoleSchema] = MISSING
    data_dir: str = MISSING
    metrics: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING


@dataclass
class JudgeSchema:
    name: str = MISSING
    factory: str = MISSING
    args: dict[str, Any] = MISSING  # the factory's keyword arguments (checked by the factory)


@dataclass
class PisSchema:
    w1: float = MISSING
    w2: float = MISSING
    w3: float = MISSING
    scale: float = MISSING
    r_dir_without_flips: float = MISSING
    u_rate_without_flips: float = MISSING


@dataclass
class JudgeCardSchema:
    judge: JudgeSchema = field(default_factory=JudgeSchema)
    data_dir: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    splits: list[str] = MISSING
    max_items: int | None = None
    seed: int = MISSING
    reruns: int = MISSING
    margin: int = MISSING
    replicates: int = MISSING
    controls: bool = MISSING
    progress: bool = MISSING
    write_answers: bool = MISSING
    cache_dir: str | None = None
    pis: PisSchema = field(default_factory=PisSchema)


@dataclass
class EvaluateSchema:
    judge: JudgeSchema = field(default_factory=JudgeSchema)
    data_dir: str = MISSING
    splits: list[str] = MISSING
    runs: int = MISSING
    seed: int = MISSING
    predictions_dir: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    cache_dir: str | None = None
    lenient: bool = MISSING
    progress: bool = MISSING


@dataclass
class TrainSchema:
    model: ModelSchema = field(default_factory=ModelSchema)
    target: TargetSchema = field(default_factory=TargetSchema)
    lora: LoraSchema = field(default_factory=LoraSchema)
    optim: OptimSchema = field(default_factory=OptimSchema)
    data: DataSchema = field(default_factory=DataSchema)
    seed: int = MISSING
    data_dir: str = MISSING
    method: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    batching: Batching = MISSING
    max_length: int = MISSING
    device: Device = MISSING
    save_every: int = MISSING
    keep_checkpoints: int = MISSING
    log_every: int = MISSING
    stop_after_steps: int | None = None
    progress: bool = MISSING


@dataclass
class PredictSchema:
    model: ModelSchema = field(default_factory=ModelSchema)
    target: TargetSchema = field(default_factory=TargetSchema)
    data: DataSchema = field(default_factory=DataSchema)
    seed: int = MISSING
    data_dir: str = MISSING
    method: str = MISSING
    run_dir: str = MISSING
    predictions_dir: str = MISSING
    out: str = MISSING
    overwrite: bool = MISSING
    cache_dir: str = MISSING
    splits: list[str] = MISSING
    batch_size: int = MISSING
    max_new_tokens: int | None = None
    merge_adapter: bool = MISSING
    confidence: str = MISSING
    device: Device = MISSING
    progress: bool = MISSING


@dataclass
class CertifySchema:
    cases: str = MISSING
    adjudicator: str = MISSING
    labels: list[str] = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    execution: str = MISSING
    budget: int | None = None
    order: list[str] | None = None
    verify_fraction: float = MISSING
    verify_seed: int = MISSING
    repeats: int = MISSING
    workers: int = MISSING
    timeout_s: float = MISSING
    cache: str | None = None
    adjudicator_version: str = MISSING
    sources: list[str] | None = None
    progress: bool = MISSING
    plugin_options: dict[str, Any] = MISSING


for _name, _schema in (
    ("generate", GenerateSchema),
    ("audit", AuditSchema),
    ("baselines", BaselinesSchema),
    ("analyze", AnalyzeSchema),
    ("tables", TablesSchema),
    ("judge_card", JudgeCardSchema),
    ("evaluate", EvaluateSchema),
    ("train", TrainSchema),
    ("predict", PredictSchema),
    ("certify", CertifySchema),
):
    SCHEMAS.register(_name, _schema)

KEY_READING.register(
    "certify",
    KeyReading(
        verbatim=("adjudicator",),
        as_text=("labels", "order", "sources", "adjudicator_version"),
        unswept=("out_dir",),
    ),
)
