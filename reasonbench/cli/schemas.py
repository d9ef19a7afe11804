"""Typed schemas of the Hydra commands' configs, checked at the CLI edge before anything runs.

Each ``conf/<name>.yaml`` has a dataclass here (registered in :data:`SCHEMAS` under that name)
that says what type each key has; the YAML files keep the defaults and the one-line help
comments. ``dict[str, Any]`` marks a subtree validated elsewhere (a benchmark spec, a judge
factory's arguments). A command without a schema is still checked for unknown keys.

A judge factory's arguments (``judge.args``) are typed by :data:`JUDGE_ARGS`: a schema derived
from the factory's own signature (:func:`factory_schema`), so the two cannot drift, with the
fields of the dataclasses its mapping arguments become (``decoding`` -> ``Decoding``).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Optional

from omegaconf import MISSING

from reasonbench.invariance.report import DELTA_FLIP_RULES
from reasonbench.registry import Registry

__all__ = ["JUDGE_ARGS", "KEY_READING", "SCHEMAS", "KeyReading", "factory_schema"]

SCHEMAS: Registry[type] = Registry("config schema")
JUDGE_ARGS: Registry[Callable[[], type]] = Registry("judge arguments schema")
"""Judge factory name -> a function building the schema of its ``judge.args`` (built on first
use: the factory's module imports its dependencies)."""

_SCALARS = (int, float, bool, str)


def _field_type(hint: Any) -> Any:
    """An OmegaConf-checkable type for a signature's annotation: scalars and their Optional stay,
    sequences become lists, mappings dicts; anything else is left to the factory (``Any``)."""
    parts = (
        typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
    )
    optional = type(None) in parts
    members = [a for a in parts if a is not type(None)] if parts else [hint]
    if len(members) != 1:
        return Any
    (base,) = members
    origin = typing.get_origin(base)
    if base in _SCALARS:
        shaped: Any = base
    elif origin in (list, tuple, collections.abc.Sequence) and typing.get_args(base)[:1] == (str,):
        shaped = list[str]
    elif origin in (dict, collections.abc.Mapping):
        shaped = dict[str, Any]
    else:
        return Any
    return Optional[shaped] if optional else shaped  # noqa: UP045 (OmegaConf reads Optional)


def _thawed(cls: type) -> type:
    """A mutable copy of dataclass ``cls`` (same fields, types and defaults): OmegaConf makes a
    frozen dataclass's config read-only, so nothing could be merged into it."""
    hints = typing.get_type_hints(cls)
    fields = [
        (f.name, hints[f.name], field(default=f.default))
        for f in dataclasses.fields(cls)
        if f.default is not dataclasses.MISSING
    ]
    return dataclasses.make_dataclass(f"{cls.__name__}Args", fields)


def factory_schema(factory: Callable[..., Any], nested: Mapping[str, type]) -> type:
    """The schema of a judge factory's keyword arguments (``name`` aside), from its signature;
    ``nested`` names the arguments that are mappings of a dataclass's fields."""
    hints = typing.get_type_hints(factory)
    fields = []
    for name in inspect.signature(factory).parameters:
        if name == "name":
            continue
        kind = _field_type(hints.get(name, Any))
        if name in nested:
            optional = type(None) in typing.get_args(hints.get(name))
            kind = Optional[_thawed(nested[name])] if optional else _thawed(nested[name])  # noqa: UP045
        fields.append((name, kind, field(default=MISSING)))
    return dataclasses.make_dataclass(f"{factory.__name__}_args", fields)


@JUDGE_ARGS.register("openai")
def _openai_args() -> type:
    from reasonbench.judges.base import Decoding
    from reasonbench.judges.served import openai_judge
    from reasonbench.serve import Prices, RetryPolicy

    return factory_schema(
        openai_judge, {"decoding": Decoding, "retry": RetryPolicy, "prices": Prices}
    )


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


DeltaFlipRule = Enum("DeltaFlipRule", {rule: rule for rule in DELTA_FLIP_RULES})  # type: ignore[misc]


@dataclass
class ModelSchema:
    name: str = MISSING
    source: str = MISSING
    dtype: Precision = MISSING
    attn_implementation: str = MISSING
    gradient_checkpointing: bool = MISSING
    micro_batch_tokens: int = MISSING
    predict_batch_size: int = MISSING
    tuning: str | None = None  # lora (null) | full: reasonbench/models/tuning.py
    # a Hugging Face backbone
    hf_id: str | None = None
    revision: str | None = None
    path: str | None = None
    hf_cache: str | None = None
    # the project's tiny model
    cache_dir: str | None = None
    vocab_size: int | None = None
    arch: Any = None  # a name in reasonbench/models/architectures.py, or explicit Qwen3 fields
    init_seed: int | None = None
    split_digits: bool | None = None


@dataclass
class TargetSchema:
    name: str = MISSING


@dataclass
class LoraSchema:
    r: int = MISSING
    alpha: int = MISSING
    dropout: float = MISSING
    target_modules: list[str] = MISSING
    modules_to_save: list[str] = field(default_factory=list)


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
class ExtraDataSchema:
    data_dir: str = MISSING
    split: str = MISSING


@dataclass
class DataSchema:
    name: str = MISSING
    suffix: str = MISSING
    train_split: str = MISSING
    permutation: PermutationSchema = field(default_factory=PermutationSchema)
    extra: list[ExtraDataSchema] = field(default_factory=list)


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
class BaselineRunSchema:
    kind: str = MISSING
    train_splits: list[str] = MISSING


@dataclass
class BaselinesSchema:
    data_dir: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    make: list[str] = MISSING
    runs: dict[str, BaselineRunSchema] = MISSING
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
    repairs: list[dict[str, Any]] = MISSING
    cpu_models: dict[str, str] = MISSING  # the CPU receipt predictors the cpu comparisons name


@dataclass
class TablesSchema:
    methods: dict[str, MethodRoleSchema] = MISSING
    data_dir: str = MISSING
    metrics: str = MISSING
    out_dir: str = MISSING
    overwrite: bool = MISSING
    curves: list[str] = field(default_factory=list)


@dataclass
class CompareSchema:
    left: str = MISSING
    right: str = MISSING
    rtol: float = MISSING
    atol: float = MISSING
    digests: list[str] = MISSING


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
    delta_flip_rule: DeltaFlipRule = MISSING


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
class CurveSchema:
    every: int = MISSING
    split: str = MISSING
    examples: int = MISSING


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
    threads: int = MISSING
    save_every: int = MISSING
    keep_checkpoints: int = MISSING
    log_every: int = MISSING
    stop_after_steps: int | None = None
    progress: bool = MISSING
    eval: CurveSchema = field(default_factory=CurveSchema)


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
    threads: int = MISSING
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


@dataclass
class ReceiptSchema:
    cube: str | None = None
    adaptive: bool = MISSING


@dataclass
class VerifySchema:
    data_dir: str = MISSING
    benchmark: dict[str, Any] = MISSING
    manifest: str | None = None


@dataclass
class ClausesAuditSchema:
    clauses_dir: str | None = None
    json: bool = MISSING


@dataclass
class ExportLmEvalSchema:
    data_dir: str = MISSING
    out_dir: str = MISSING
    split: str = MISSING
    targets: list[str] | None = None
    instruction: bool = MISSING
    trim: bool = MISSING
    overwrite: bool = MISSING


@dataclass
class ImportLogsSchema:
    log: str = MISSING
    data_dir: str = MISSING
    predictions_dir: str = MISSING
    name: str | None = None
    seed: int = MISSING
    overwrite: bool = MISSING


for _name, _schema in (
    ("receipt", ReceiptSchema),
    ("verify", VerifySchema),
    ("clauses_audit", ClausesAuditSchema),
    ("generate", GenerateSchema),
    ("audit", AuditSchema),
    ("baselines", BaselinesSchema),
    ("analyze", AnalyzeSchema),
    ("tables", TablesSchema),
    ("compare", CompareSchema),
    ("judge_card", JudgeCardSchema),
    ("evaluate", EvaluateSchema),
    ("train", TrainSchema),
    ("predict", PredictSchema),
    ("certify", CertifySchema),
    ("export_lm_eval", ExportLmEvalSchema),
    ("import_lm_eval", ImportLogsSchema),
    ("import_inspect", ImportLogsSchema),
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
