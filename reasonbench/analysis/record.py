"""``metrics.json`` as typed records: what ``reasonbench analyze`` writes and the reports read.

Every number is a field of one of these frozen dataclasses; :mod:`reasonbench.analysis.jsontypes`
turns them into JSON and back and derives the JSON Schema committed as
``docs/metrics.schema.json`` (``python -m reasonbench.analysis.schema`` rewrites it). A rate with an
empty denominator is ``null``, never 0. Metric names are the registered names of
:data:`reasonbench.analysis.metrics.METRICS` (constants in ``analysis/metrics/builtin.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reasonbench.analysis.bootstrap import Interval
from reasonbench.analysis.jsontypes import RecordFormatError, from_json, to_json
from reasonbench.analysis.selective import SelectiveResult
from reasonbench.analysis.two_plane import TwoPlanePoint

__all__ = [
    "FORMAT",
    "CalibrationFit",
    "CellAgreement",
    "Comparison",
    "ConsistencyRate",
    "Effect",
    "Inference",
    "MethodEntry",
    "MethodInfo",
    "MethodIntervals",
    "MetricInfo",
    "MetricsReport",
    "PairedConsistency",
    "Plugin",
    "Ratio",
    "ReliabilityBin",
    "Repair",
    "SeedEntry",
    "SourceCalibration",
    "SplitInference",
    "SplitSummary",
]

FORMAT = "reasonbench.metrics/2"


@dataclass(frozen=True)
class Ratio:
    """One metric over a set of examples: numerator / denominator (``value`` null when 0/0)."""

    value: float | None
    numerator: float
    denominator: float


@dataclass(frozen=True)
class SplitSummary:
    """Every registered metric that applies to the method's target, over one set of examples."""

    n: int
    metrics: dict[str, Ratio]


@dataclass(frozen=True)
class ConsistencyRate:
    """One control kind: pairs, pairs the target can be checked on, and those that satisfy the
    relation (a parse failure on a checkable pair violates it); bound = (1 − consistency) / 2."""

    pairs: int
    checkable: int
    consistent: int
    consistency: float | None
    error_lower_bound: float | None


@dataclass(frozen=True)
class CellAgreement:
    """Cube targets only: pairs whose 2^k cells all satisfy the kind's cell relation, and the
    share of cells that do (a parse failure agrees on no cell)."""

    pairs: int
    all_cells: float | None
    cells: float | None


@dataclass(frozen=True)
class PairedConsistency:
    """Per control kind, pooled and per stratum (pooled counts = the sum of the strata's)."""

    pooled: dict[str, ConsistencyRate]
    strata: dict[str, dict[str, ConsistencyRate]]
    cells: dict[str, CellAgreement] = field(default_factory=dict)
    # per stratum and pooled: the share of the method's locked-test answers (endpoints and
    # receipt; an unparsed output is one answer) that are its most frequent one. A method that
    # gives one answer to most cases is consistent without reading the pair (issue 41)
    top_answer: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ReliabilityBin:
    """One equal-width confidence bin of a reliability diagram on the locked test."""

    low: float
    high: float
    count: int
    confidence: float | None
    accuracy: float | None


@dataclass(frozen=True)
class CalibrationFit:
    """A confidence scale on the locked test's predicted changes: raw, or a map fitted on the
    calibration split; ``fitted`` false (and ``ece`` null) when the source has no valid map."""

    scale: str
    fitted: bool
    calibration_points: int
    test_points: int
    ece: float | None
    bins: list[ReliabilityBin]


@dataclass(frozen=True)
class SourceCalibration:
    """One confidence source: the raw confidences and each calibration map."""

    raw: CalibrationFit
    maps: dict[str, CalibrationFit]


@dataclass(frozen=True)
class SeedEntry:
    """One seed of one method."""

    splits: dict[str, SplitSummary]
    confidence_sources: list[str]
    subgroups: dict[str, dict[str, SplitSummary]] = field(default_factory=dict)
    cardinality_subgroups: dict[str, dict[str, SplitSummary]] = field(default_factory=dict)
    consistency: PairedConsistency | None = None
    # confidence scale (raw | a calibration map) -> source -> one row per target coverage
    selective: dict[str, dict[str, list[SelectiveResult]]] = field(default_factory=dict)
    calibration: dict[str, SourceCalibration] = field(default_factory=dict)
    # the two-plane audit (analysis/two_plane.py): one point per route of its grid, in grid order
    two_plane: list[TwoPlanePoint] = field(default_factory=list)


@dataclass(frozen=True)
class MethodInfo:
    """What a method is: its target (from its records), and its paper role, model and data
    variant (from the role map, ``conf/methods/paper.yaml``; null for a method without a role)."""

    target: str
    verdict_only: bool
    seeds: list[int]
    splits: list[str]
    role: str | None = None
    model: str | None = None
    data: str | None = None


@dataclass(frozen=True)
class MethodEntry:
    """One method: its seeds, and per split the counts pooled over seed-example observations."""

    info: MethodInfo
    seeds: dict[str, SeedEntry]
    pooled: dict[str, SplitSummary]


@dataclass(frozen=True)
class MethodIntervals:
    """Hierarchical-bootstrap CIs of one method's co-primary outcomes (mean over its own seeds)."""

    seeds: int
    outcomes: dict[str, Interval]


@dataclass(frozen=True)
class SplitInference:
    """The bootstrap of one split: its independent units and every method's intervals."""

    units: int
    methods: dict[str, MethodIntervals]


@dataclass(frozen=True)
class Effect:
    """A paired difference a − b: CI, two-sided bootstrap p and Holm within its family."""

    estimate: float
    low: float
    high: float
    p_value: float
    p_holm: float


@dataclass(frozen=True)
class Comparison:
    """One configured comparison; ``status`` is "not run" when a method has no predictions."""

    name: str
    a: str
    b: str
    family: str
    split: str
    status: str
    outcomes: dict[str, Effect] = field(default_factory=dict)
    # subgroup family (stratum, min_receipt_size) -> value -> outcome -> CI of a − b
    subgroups: dict[str, dict[str, dict[str, Interval]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Repair:
    """A consistency repair: after − before of one control kind's paired consistency on the
    locked controls, pooled and per stratum, with 95% hierarchical-bootstrap CIs (points as
    rates: 0.4 = 40 points). The unit draws are shared by both arms (the same locked units);
    the seed draws are too when both arms have the same seeds (``seeds_paired``), and otherwise
    each arm resamples its own seeds independently. ``status`` is "not run" when an arm has no
    predictions on the controls."""

    name: str
    after: str
    before: str
    kind: str
    status: str
    seeds_after: list[int] = field(default_factory=list)
    seeds_before: list[int] = field(default_factory=list)
    seeds_paired: bool = False
    pooled: Interval | None = None
    strata: dict[str, Interval] = field(default_factory=dict)


@dataclass(frozen=True)
class Inference:
    """Bootstrap CIs per split and method, the comparisons with Holm per family, and the
    consistency repairs (descriptive, no Holm)."""

    replicates: int
    seed: int
    splits: dict[str, SplitInference]
    comparisons: dict[str, Comparison]
    families: dict[str, list[str]]
    repairs: dict[str, Repair] = field(default_factory=dict)


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric as the reports label it."""

    description: str
    co_primary: bool


@dataclass(frozen=True)
class Plugin:
    """A plug-in the analysis loaded (:func:`reasonbench.plugins.loaded_plugins`): its module,
    and the installed distribution that provides it with its version (null: none does)."""

    module: str
    distribution: str | None = None
    version: str | None = None


@dataclass(frozen=True)
class MetricsReport:
    """The whole of ``metrics.json``."""

    format: str
    data_manifest_sha256: str
    benchmark: str | None
    metrics: dict[str, MetricInfo]
    methods: dict[str, MethodEntry]
    inference: Inference
    # gold revised verdicts counted per split -> stratum -> verdict (the benchmark's label mix)
    verdict_mix: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    # the gold answers of the locked test: the share of the most frequent one, per stratum and
    # pooled (what the methods' top_answer is read against)
    gold_top_answer: dict[str, float] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    # the plug-ins loaded when it was written (docs/extending.md): ``tables`` loads them too, or
    # refuses naming the one it cannot import. Written only when there are any
    plugins: list[Plugin] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = to_json(self)
        if not self.plugins:  # a report without plug-ins keeps the bytes it had before
            del out["plugins"]
        return out

    @classmethod
    def from_json(cls, data: Any) -> MetricsReport:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise RecordFormatError(
                f"not a metrics file of this reasonbench: format {found!r}, expected {FORMAT!r} "
                "(rerun 'reasonbench analyze')"
            )
        return from_json(cls, data)
