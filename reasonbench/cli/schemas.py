"""Every key of every Hydra command, declared once: its type, default and one-line help.

Each ``conf/<name>.yaml`` has a dataclass here (registered in :data:`SCHEMAS` under that name).
Its fields (:func:`~reasonbench.cli.keys.key`) are the command's keys; the node Hydra composes is
built from them (:func:`~reasonbench.cli.keys.store_keys`), so the YAML keeps only the defaults
list that chooses the config groups' options (the variants: ``conf/model/*.yaml``, ...), Hydra's
settings and the usage comment. A group's keys are declared by its dataclass here
(:func:`~reasonbench.cli.keys.group`). ``dict[str, Any]`` marks a subtree validated elsewhere (a
benchmark spec, a judge factory's arguments).

A judge factory's arguments (``judge.args``) are typed by :data:`JUDGE_ARGS`: a schema derived
from the factory's own signature (:func:`factory_schema`), so the two cannot drift, with the
fields of the dataclasses its mapping arguments become (``decoding`` -> ``Decoding``).
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Optional

from omegaconf import MISSING

from reasonbench.cli.keys import cli_type, derived, group, key, section
from reasonbench.invariance.report import DELTA_FLIP_RULES, PisConfig
from reasonbench.models.kernels import KERNEL_SETTINGS, PORTABLE
from reasonbench.registry import Registry

__all__ = ["JUDGE_ARGS", "KEY_READING", "SCHEMAS", "KeyReading", "factory_schema"]

SCHEMAS: Registry[type] = Registry("config schema")
JUDGE_ARGS: Registry[Callable[[], type]] = Registry("judge arguments schema")
"""Judge factory name -> a function building the schema of its ``judge.args`` (built on first
use: the factory's module imports its dependencies)."""


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
    for name, parameter in inspect.signature(factory).parameters.items():
        if name == "name" or parameter.kind in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
            continue
        kind = cli_type(hints.get(name, Any))
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


@JUDGE_ARGS.register("hf_zero_shot")
def _hf_args() -> type:
    from reasonbench.judges.base import Decoding
    from reasonbench.judges.hf import hf_zero_shot

    return factory_schema(hf_zero_shot, {"decoding": Decoding})


@JUDGE_ARGS.register("lora")
def _lora_args() -> type:
    from reasonbench.judges.lora import lora_judge

    # decoding stays a mapping: its max_new_tokens may be null (the target's budget)
    return factory_schema(lora_judge, {})


@JUDGE_ARGS.register("tiny_zero_shot")
def _tiny_args() -> type:
    from reasonbench.judges.base import Decoding
    from reasonbench.judges.hf import hf_zero_shot
    from reasonbench.judges.tiny import tiny_zero_shot

    # its own arguments, then hf_zero_shot's, which it passes the rest to
    own = factory_schema(tiny_zero_shot, {})
    rest = factory_schema(hf_zero_shot, {"decoding": Decoding})
    taken = {f.name for f in dataclasses.fields(own)} | {"path"}
    more = [(f.name, f.type, f) for f in dataclasses.fields(rest) if f.name not in taken]
    return dataclasses.make_dataclass("tiny_zero_shot_args", [
        *[(f.name, f.type, f) for f in dataclasses.fields(own)], *more
    ])  # fmt: skip


@JUDGE_ARGS.register("baseline")
def _baseline_args() -> type:
    from reasonbench.judges.baseline import baseline_judge

    return factory_schema(baseline_judge, {})


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


CpuKernels = Enum("CpuKernels", {k: k for k in KERNEL_SETTINGS})  # type: ignore[misc]


class Precision(Enum):
    bf16 = "bf16"
    fp16 = "fp16"
    fp32 = "fp32"


DeltaFlipRule = Enum("DeltaFlipRule", {rule: rule for rule in DELTA_FLIP_RULES})  # type: ignore[misc]


def _analyze_replicates() -> int:
    from reasonbench.analysis.analyze import REPLICATES

    return REPLICATES


_ANALYZE_REPLICATES = _analyze_replicates()  # the library's one default
_ROLES = "paper roles -> runs (conf/methods/)"
_OVERWRITE = "replace outputs reasonbench did not write (or that were edited since)"
_DATA_DIR = "the generated benchmark (reasonbench generate out_dir=...)"
_PREDICTIONS_DIR = "where analyze reads"
_MODEL = "the backbone (conf/model/)"
_TARGET = "the learning target (conf/target/)"
_DATA = "the training data (conf/data/)"
_METHOD_HELP = "the prediction records' `method`"
_OVERWRITE_FILES = "replace files reasonbench did not write (or that were edited since)"
_PROGRESS = "rate and ETA (a bar on a terminal, plain lines otherwise)"
# part of the run and of predict's cache key, as threads: other kernels round otherwise
_CPU_KERNELS = (
    "portable (ATen AVX2, MKL compatible: the same bytes on every x86-64 CPU) | native (the CPU's "
    "fastest)"
)
_SPLITS = [
    "calibration",
    "dev",
    "test_locked",
    "shift_operator",
    "shift_linguistic",
    "shift_depth",
    "controls_locked",
    "cardinality_test",
]

# --- the keys of the config groups' options (their values: conf/<group>/*.yaml) ---------------


@dataclass
class ModelSchema:
    name: str = key(help="the model's name in run directories and the records' method")
    source: str = key(
        help="the registered backbone loader", names="reasonbench.models.backbone:BACKBONE_SOURCES"
    )
    dtype: Precision = key(help="bf16 | fp16 | fp32 (weights; LoRA parameters stay fp32)")
    attn_implementation: str = key(help="sdpa, or flash_attention_2 where flash-attn is installed")
    gradient_checkpointing: bool = key(help="recompute activations in backward (less memory)")
    micro_batch_tokens: int = key(help="padded tokens per micro-batch: bounds activation memory")
    predict_batch_size: int = key(help="prompts decoded together by reasonbench predict")
    tuning: str | None = key(None, "lora (frozen backbone + adapter) | full (every weight trains)")
    # a Hugging Face backbone
    hf_id: str | None = key(None, "the Hugging Face model id (hf)")
    revision: str | None = key(None, "the pinned revision of hf_id")
    path: str | None = key(None, "a model directory (config.json, weights, tokenizer)")
    hf_cache: str | None = key(None, "a Hugging Face hub cache other than ~/.cache/huggingface/hub")
    # the project's tiny model
    cache_dir: str | None = key(None, "where the tiny model is built (tiny)")
    vocab_size: int | None = key(None, "the tiny model's vocabulary size")
    arch: Any = key(None, "a name in reasonbench/models/architectures.py, or explicit Qwen3 fields")
    init_seed: int | None = key(None, "the seed of the tiny model's initial weights")
    split_digits: bool | None = key(None, "the tiny tokenizer splits numbers into digits")


@dataclass
class TargetSchema:
    name: str = key(help="a registered learning target (docs/targets.md)")


@dataclass
class LoraSchema:
    r: int = key(help="LoRA rank")
    alpha: int = key(help="LoRA scaling numerator (scale alpha / r)")
    dropout: float = key(help="dropout on the LoRA input")
    target_modules: list[str] = key(help="the linear layers that get an adapter")
    modules_to_save: list[str] = key([], "modules trained in full beside LoRA (e.g. [norm])")


@dataclass
class OptimSchema:
    lr: float = key(help="peak learning rate (AdamW)")
    weight_decay: float = key(help="AdamW weight decay")
    betas: list[float] = key(help="AdamW betas")
    scheduler: str = key(help="any transformers.get_scheduler name")
    warmup_ratio: float = key(help="share of the steps spent warming up")
    epochs: int = key(help="passes over the training split")
    max_steps: int | None = key(None, "overrides epochs when set")
    batch_size: int = key(help="examples per optimizer step, over all processes")
    max_grad_norm: float = key(help="gradient clipping norm")


@dataclass
class PermutationSchema:
    rate: float = key(help="share of training examples with permuted source order")
    mode: str = key(help="how the order is permuted")


@dataclass
class ExtraDataSchema:
    data_dir: str = key(help="another generated benchmark to train on too")
    split: str = key(help="its split that is added")


@dataclass
class DataSchema:
    name: str = key(help="the training data variant")
    suffix: str = key(help="appended to the method name (-permaug, -cardinality)")
    train_split: str = key(help="the split trained on")
    permutation: PermutationSchema = section(PermutationSchema, "permutation augmentation")
    extra: list[ExtraDataSchema] = key([], "further training data (data_dir, split)")


@dataclass
class MethodRoleSchema:
    method: str = key(help="the prediction records' method that plays the role")
    target: str | None = key(None, "the target the role expects (others are refused)")
    model: str | None = key(None, "its backbone")
    data: str | None = key(None, "its training data")


@dataclass
class JudgeSchema:
    name: str = key(help="the judge's name in reports and the records' method")
    factory: str = key(help="a registered judge factory, or pkg.module:function")
    args: dict[str, Any] = key(help="the factory's keyword arguments (checked by the factory)")


# --- the commands' own keys ---------------------------------------------------------------------


@dataclass
class GenerateSchema:
    benchmark: dict[str, Any] = group(help="the benchmark spec (conf/benchmark/)")
    out_dir: str = key("data/reasonbench", "where the splits and their manifest go")
    overwrite: bool = key(False, _OVERWRITE)
    workers: int = key(2, "processes; output is byte-identical for any value")
    progress: bool = key(True, _PROGRESS)
    cardinality: bool = key(True, "also write the post-freeze cardinality experiment")
    freeze: bool = key(
        False,
        "copy the manifests into data/manifests of the working directory (maintainers, from the "
        "checkout, when the benchmark changes)",
    )


@dataclass
class AuditSchema:
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    audit_dir: str | None = key(
        None, "default: results/audit/<benchmark name> of the working directory"
    )
    overwrite: bool = key(False, _OVERWRITE)
    workers: int = key(2, "processes; the report is the same for any value")
    progress: bool = key(True, _PROGRESS)


def _tfidf_schema() -> type:
    from reasonbench.baselines.tfidf import SETTINGS_HELP, tfidf_predictions

    skip = ("rows", "train_splits", "method")  # the run's, not the kind's settings
    return derived(tfidf_predictions, "TfidfSchema", helps=SETTINGS_HELP, skip=skip)


TfidfSchema = _tfidf_schema()


@dataclass
class BaselineRunSchema:
    kind: str = key(help="a registered baseline kind", names="reasonbench.baselines:BASELINES")
    train_splits: list[str] = key(help="the splits it trains on")
    settings: dict[str, Any] = key(
        {},
        "this run's settings of its kind, over the kind's own section (tfidf.*) if the command "
        "has one: runs.<method>.settings.<name>=<value>",
        new_entries=True,
    )


@dataclass
class BaselinesSchema:
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    out_dir: str = key("results/predictions", "where <method>.parquet go")
    overwrite: bool = key(False, _OVERWRITE)
    # (not `methods`: that name is the role-map config group, which Hydra would not let a
    # command line set)
    make: list[str] = key(
        ["majority", "tfidf", "tfidf_train_dev"], "the runs below to make (<method>.parquet each)"
    )
    # The paper's TF-IDF "uses more training data than the neural runs" (train): tfidf_train_dev
    # adds dev (calibration stays out: selective thresholds are fitted there). docs/analysis.md §11
    runs: dict[str, BaselineRunSchema] = key(
        {
            "majority": BaselineRunSchema("majority", ["train"]),
            "tfidf": BaselineRunSchema("tfidf", ["train"]),
            "tfidf_train_dev": BaselineRunSchema("tfidf", ["train", "dev"]),
        },
        "method (the records' `method`) -> baseline kind, the splits it trains on and its "
        "settings (add one: runs.<method>={kind: tfidf, train_splits: [train]}); the kinds",
        new_entries=True,
        names="reasonbench.baselines:BASELINES",
    )
    tfidf: TfidfSchema = section(TfidfSchema, "the settings of every run of kind tfidf")  # type: ignore[valid-type]


def _methods(role: str) -> str:
    """The method that plays ``role`` (an interpolation), or ``role`` itself if it is one."""
    return role if role.startswith("${") else "${methods." + role + ".method}"


_SIZE = ["stratum", "min_receipt_size"]


def _pair(
    name: str, a: str, b: str, family: str, by: list[str] | None = None, **more: Any
) -> dict[str, Any]:
    """One paired comparison a - b of roles (or of methods, given as interpolations), with CIs
    per value of each ``by`` (default: per stratum; ``[]``: pooled only)."""
    out: dict[str, Any] = {"name": name, "a": _methods(a), "b": _methods(b), "family": family}
    out.update(more)
    by = ["stratum"] if by is None else by
    return {**out, "by": by} if by else out


@dataclass
class AnalyzeSchema:
    methods: dict[str, MethodRoleSchema] = group(help=_ROLES)
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    predictions_dir: str = key("results/predictions", "the prediction records to score")
    out: str = key("results/metrics.json", "the metrics file")
    overwrite: bool = key(False, _OVERWRITE)
    replicates: int = key(
        _ANALYZE_REPLICATES, "hierarchical-bootstrap replicates (units and seeds resampled)"
    )
    seed: int = key(0, "seed of the bootstrap draws")
    allow_mixed_sources: bool = key(
        False, "ADR-054: refuse to fit one threshold across confidence sources"
    )
    calibration_maps: list[str] = key(
        ["isotonic", "platt"], "ADR-054: per-source maps fitted on the calibration split"
    )
    selective_on: list[str] = key(
        ["raw", "isotonic"], "confidence scales selective-debt thresholds use (raw or a map)"
    )
    reliability_bins: int = key(10, "equal-width bins of the reliability diagrams and the ECE")
    calibration_min_points: int = key(
        20, "calibration predicted changes a source needs to get a map"
    )
    two_plane_splits: list[str] = key(
        ["test_locked"], "the two-plane audit's evaluated splits ([]: no audit; docs/analysis.md)"
    )
    two_plane_scale: str = key(
        "isotonic", "calibration map whose confidence routes a predicted change"
    )
    progress: bool = key(True, "rate and ETA while scoring (plain lines off a terminal)")
    # a - b on `split` (default test_locked); Holm adjusts within each `family` only; `by`: CIs of
    # the difference per subgroup value (stratum, min_receipt_size, ambiguity). The cpu families:
    # the CPU receipt predictors (model=small_cpu, docs/training.md "A model that learns on
    # CPU"), not the paper's models; their cube - direct comparison is the primary question on
    # CPU, and the cube model against TF-IDF on the two accuracies its goal names
    comparisons: list[dict[str, Any]] = key(
        [
            _pair(
                "cube_vs_direct_receipt", "cube", "direct_receipt", "primary", _SIZE + ["ambiguity"]
            ),
            _pair(
                "replication_cube_vs_direct_receipt",
                "replication_cube",
                "replication_direct_receipt",
                "replication",
            ),
            _pair("permaug_cube_vs_direct", "permaug_cube", "permaug_direct", "augmentation"),
            _pair(
                "cardinality_cube_vs_direct",
                "cardinality_cube",
                "cardinality_direct",
                "cardinality",
                _SIZE,
                split="cardinality_test",
            ),
            _pair("tfidf_vs_majority", "tfidf", "majority", "surface", []),
            _pair(
                "cpu_cube_vs_direct_receipt",
                "${cpu_models.cube}",
                "${cpu_models.direct_receipt}",
                "cpu",
                _SIZE,
            ),
            _pair(
                "cpu_cube_vs_tfidf",
                "${cpu_models.cube}",
                "tfidf",
                "cpu_vs_surface",
                _SIZE,
                metrics=["receipt_accuracy", "endpoint_accuracy"],
            ),
        ],
        "paired comparisons (name, a, b, family, split, by)",
    )
    # the main job's committed runs (the CPU rehearsal points them at its stand-in runs,
    # reasonbench/rehearsal.py)
    cpu_models: dict[str, str] = key(
        {"cube": "small_cpu-cube", "direct_receipt": "small_cpu-direct_receipt"},
        "the CPU receipt predictors the cpu comparisons name",
    )
    # after - before of one control kind's paired consistency on the locked controls, pooled and
    # per stratum, with bootstrap CIs (seeds paired only when both arms have the same seeds; no
    # Holm)
    repairs: list[dict[str, Any]] = key(
        [
            {
                "name": "permaug_repair_direct",
                "after": _methods("permaug_direct"),
                "before": _methods("direct_receipt"),
                "kind": "permutation",
            },
            {
                "name": "permaug_repair_cube",
                "after": _methods("permaug_cube"),
                "before": _methods("cube"),
                "kind": "permutation",
            },
        ],
        "consistency repairs (name, after, before, kind)",
    )


@dataclass
class TablesSchema:
    methods: dict[str, MethodRoleSchema] = group(help=_ROLES)
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    metrics: str = key("results/metrics.json", "the metrics file reasonbench analyze wrote")
    out_dir: str = key("results", "where tables/ and figures/ go")
    overwrite: bool = key(False, _OVERWRITE)
    curves: list[str] = key(
        [], "training run directories whose learning curves (eval.every) to draw"
    )


@dataclass
class CompareSchema:
    left: str = key(help="a metrics file or a results directory (e.g. the committed one)")
    right: str = key(help="the same kind of path to compare with it (e.g. a fresh run's)")
    rtol: float = key(1.0e-5, "relative tolerance of floats: |a-b| <= max(rtol*max(|a|,|b|), atol)")
    atol: float = key(1.0e-9, "absolute tolerance of floats (numbers at or near 0)")
    fit_atol: float = key(
        0.01,
        "a discontinuous fit (isotonic bins, selective thresholds) may move its effect by this "
        "share of its records (docs/reproducibility.md)",
    )
    # the output ledgers (the sha256 of each file beside them) and the learned adapter's sha256
    # (weights agree within tolerance)
    digests: list[str] = key(
        ["*.reasonbench-outputs.json", "*.meta.json:adapter_sha256"],
        "GLOB or GLOB:KEY: digests of what is compared elsewhere, listed, not counted",
    )
    # the CPU kernels a prediction run used, and the cache path of the base built for them (its
    # key names the kernels below AVX2): they differ on such a CPU by design (docs/reproducibility.md)
    machine: list[str] = key(
        ["*.meta.json:cpu_kernels", "*.meta.json:path"],
        "GLOB or GLOB:KEY: entries that record the machine a run used, listed, not counted",
    )


PisSchema = derived(PisConfig, "PisSchema", types_={"delta_flip_rule": DeltaFlipRule})


def _card_settings() -> type:
    from reasonbench.judge_card import CardSettings

    return derived(CardSettings, "CardSettingsSchema", sections={"pis": PisSchema})


@dataclass
class _AuditedJudge:
    judge: JudgeSchema = group(JudgeSchema, "the judge audited (conf/judge/)")


# the judge group first, as the composed config has it (a dataclass collects its bases' fields
# from the last base to the first), then the card's settings, then the command's own keys
@dataclass
class JudgeCardSchema(_card_settings(), _AuditedJudge):  # type: ignore[misc]
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    out_dir: str = key("results/judge_cards/${judge.name}", "where the card goes")
    overwrite: bool = key(False, _OVERWRITE)
    progress: bool = key(True, "certification and answering progress (rate, ETA) on stderr")
    write_answers: bool = key(True, "stress_suite.json and answers.jsonl beside the card")
    cache_dir: str | None = key(
        "data/cache/answers",
        "local model judges' answers, shared with `reasonbench evaluate` (null: none)",
    )


@dataclass
class EvaluateSchema:
    judge: JudgeSchema = group(JudgeSchema, "the judge evaluated (conf/judge/)")
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    splits: list[str] = key(_SPLITS, "the splits answered (a missing cardinality split is skipped)")
    runs: int = key(1, "answers per prompt; run r uses seed + r (records carry that seed)")
    seed: int = key(0, "seed of the first run")
    predictions_dir: str = key("results/predictions", _PREDICTIONS_DIR)
    out_dir: str = key("${predictions_dir}/${judge.name}", "where this judge's records go")
    overwrite: bool = key(
        False, "true: replace prediction files reasonbench did not write (or that changed)"
    )
    cache_dir: str | None = key(
        "data/cache/answers", "local model judges' answers (a served judge: judge.args.cache_dir)"
    )
    lenient: bool = key(True, "also count what a lenient reading accepts (reported, never scored)")
    progress: bool = key(True, _PROGRESS)


@dataclass
class CurveSchema:
    every: int = key(
        0, "optimizer steps between points (0: no curve); points go to train_log.jsonl"
    )
    split: str = key("dev", "the split sampled")
    examples: int = key(
        256, "the first rows of the split in sha256(id) order, the same for every run"
    )


_METHOD = "${model.name}-${target.name}${data.suffix}"


@dataclass
class TrainSchema:
    model: ModelSchema = group(ModelSchema, _MODEL)
    target: TargetSchema = group(TargetSchema, _TARGET)
    lora: LoraSchema = group(LoraSchema, "the adapter (conf/lora/)")
    optim: OptimSchema = group(OptimSchema, "the optimizer (conf/optim/)")
    data: DataSchema = group(DataSchema, _DATA)
    seed: int = key(0, "seed of the adapter's initialisation, order and dropout")
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    method: str = key(_METHOD, _METHOD_HELP)
    out_dir: str = key("runs/${method}/seed${seed}", "the run directory (a rerun resumes there)")
    overwrite: bool = key(False, _OVERWRITE)
    batching: Batching = key(
        Batching.padding_free,
        "padded | length_grouped | padding_free: same gradient, less padding",
    )
    max_length: int = key(2048, "tokens; a longer prompt loses its start, a target is never cut")
    device: Device = key(Device.auto, "auto (GPU when present) | cpu")
    # part of the run, since another count can round differently
    threads: int = key(
        1, "torch CPU threads, set by the run itself (OMP_NUM_THREADS is overridden)"
    )
    cpu_kernels: CpuKernels = key(CpuKernels[PORTABLE], _CPU_KERNELS)
    save_every: int = key(200, "optimizer steps between checkpoints")
    keep_checkpoints: int = key(2, "the newest checkpoints kept")
    log_every: int = key(10, "optimizer steps between lines of train_log.jsonl")
    stop_after_steps: int | None = key(
        None, "stop after N steps of this invocation without saving, as a kill would"
    )
    progress: bool = key(True, _PROGRESS)
    eval: CurveSchema = section(
        CurveSchema, "the learning curve: greedy accuracy on a fixed sample while training"
    )


@dataclass
class PredictSchema:
    model: ModelSchema = group(ModelSchema, _MODEL)
    target: TargetSchema = group(TargetSchema, _TARGET)
    data: DataSchema = group(DataSchema, _DATA)
    seed: int = key(0, "the run's seed")
    data_dir: str = key("data/reasonbench", _DATA_DIR)
    method: str = key(_METHOD, _METHOD_HELP)
    run_dir: str = key("runs/${method}/seed${seed}", "a finished `reasonbench train` run")
    predictions_dir: str = key("results/predictions", _PREDICTIONS_DIR)
    out: str = key("${predictions_dir}/${method}/seed${seed}.jsonl", "the records file")
    overwrite: bool = key(False, _OVERWRITE)
    cache_dir: str = key("data/cache/predict", "cached generations (an interrupted run resumes)")
    splits: list[str] = key(_SPLITS, "the splits decoded (missing ones, no cardinality/, skipped)")
    batch_size: int = key("${model.predict_batch_size}", "prompts decoded together")
    max_new_tokens: int | None = key(
        None, "null: the target's decoding budget (reasonbench/targets/builtin.py)"
    )
    merge_adapter: bool = key(
        True, "fold LoRA into the weights before decoding (faster; part of the cache key)"
    )
    confidence: str = key(
        "seq_prob", "seq_prob (whole emitted target) | verdict_token_prob (revised verdict)"
    )
    device: Device = key(Device.auto, "auto | cpu")
    # part of the cache key: another count can round a confidence differently
    threads: int = key(
        1,
        "torch CPU threads of the prompt pass, set by the command itself (overrides "
        "OMP_NUM_THREADS); the one-token steps run on one",
    )
    cpu_kernels: CpuKernels = key(CpuKernels[PORTABLE], _CPU_KERNELS)
    progress: bool = key(True, _PROGRESS)


# plugin_options of adjudicator=llm:<base_url> (docs/certify.md#an-llm-judge), set as
# plugin_options.<key>=...: model (required; the served model's name), api (chat | completions),
# api_key_env (name of the variable holding the key), template (inline text with one {source}
# slot per source) or template_file (a file of it), system (chat system message), temperature
# (0: greedy), top_p, max_tokens (16), stop ([...]), seed (run r sends seed+r), verdict_regex
# (default: the label the answer's first line starts with), extra_body ({...} more request
# fields), retry ({max_attempts, backoff_s, max_backoff_s, max_wait_s, max_consecutive_failures})
def _certify_schema() -> type:
    from reasonbench.certify import CertifyConfig

    return derived(
        CertifyConfig, "CertifySchema", helps={"overwrite": _OVERWRITE, "progress": _PROGRESS},
        defaults={"out_dir": "results/certify"},
    )  # fmt: skip


CertifySchema = _certify_schema()


@dataclass
class ReceiptSchema:
    cube: str | None = key(None, "read the cube from this JSON file (null: stdin)")
    adaptive: bool = key(
        False, 'cells as a black box: skip supersets of sufficient sets, report "queries"'
    )


@dataclass
class ExportModelSchema:
    run: str = key(
        help="a finished `reasonbench train` run directory (models/small_cpu-cube/seed0)"
    )
    out_dir: str = key(help="the Hugging Face model directory to write (replaced whole)")
    data_dir: str | None = key(
        None, "where a tiny base is rebuilt from if the run's backbone is gone (null: the run's)"
    )
    overwrite: bool = key(False, _OVERWRITE)


@dataclass
class VerifySchema:
    benchmark: dict[str, Any] = group(
        help="its committed manifest: data/manifests/<benchmark name>.json"
    )
    data_dir: str = key("data/reasonbench", "the generated files to check")
    manifest: str | None = key(None, "an explicit manifest file instead of benchmark")


@dataclass
class ClausesAuditSchema:
    clauses_dir: str | None = key(None, "clause directory (null: data/clauses)")
    json: bool = key(False, "print one JSON document instead of one line per clause")


@dataclass
class ExportLmEvalSchema:
    data_dir: str = key(
        "data/reasonbench", "the generated benchmark the tasks read (its Parquet splits, offline)"
    )
    out_dir: str = key("lm_eval_tasks", "the task directory (lm_eval --include_path <out_dir>)")
    split: str = key("test_locked", "the split every task evaluates")
    targets: list[str] | None = key(
        None, "the targets to export, one task each (null: every registered target)"
    )
    instruction: bool = key(
        False,
        "true: the target's task instruction as the task's description (zero-shot models)",
    )
    trim: bool = key(
        True,
        "parse the answer without a leading <think> block, cut to the target's lines "
        "(false: the whole output)",
    )
    overwrite: bool = key(False, _OVERWRITE_FILES)


def _import_logs(log_help: str, read: str) -> type:
    """The keys of importing a harness's logs (lm_eval's or inspect's): the same but for ``log``."""

    @dataclass
    class ImportLogsSchema:
        log: str = key(help=log_help)
        data_dir: str = key(
            "data/reasonbench", f"the build {read} (checked against the log's manifest hash)"
        )
        predictions_dir: str = key(
            "results/predictions", "where analyze reads; records go to <predictions_dir>/<method>/"
        )
        name: str | None = key(
            None,
            "the records' method is <name>-<target> (null: the last part of the harness's "
            "model name)",
        )
        seed: int = key(0, "the records' seed (a second run of the same model: seed=1)")
        overwrite: bool = key(False, _OVERWRITE_FILES)

    return ImportLogsSchema


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
    ("export_model", ExportModelSchema),
    (
        "import_lm_eval",
        _import_logs(
            "lm_eval's --output_path (every results_*.json under it) or one results_*.json",
            "the tasks read",
        ),
    ),
    (
        "import_inspect",
        _import_logs(
            "an inspect log directory (every *.eval under it) or one .eval log", "the task read"
        ),
    ),
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
