"""Hierarchical-bootstrap CIs per split and method, and paired comparisons with Holm per family.

The bootstrapped outcomes are the co-primary metrics (registered with ``co_primary=True``; their
denominator is every example). Per split, :class:`SplitDesign` fixes the examples, their
independent units and the resampling counts; :func:`distribution` gives one method's estimate (the
mean over its own seeds) and bootstrap distribution, optionally within a subgroup;
:func:`compare` turns two distributions into an :class:`Effect` per outcome, and :func:`holm_within`
adjusts the p-values within each declared family only, so a secondary comparison never changes a
primary ``p_holm``. :func:`repair` is the consistency counterpart of :func:`compare`: after − before
of one control kind's paired consistency, resampling the locked test's units (the pairs' parents')
and each arm's seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from reasonbench.analysis.bootstrap import (
    FloatArray,
    Interval,
    SplitDraws,
    holm,
    paired_p_value,
    percentile_interval,
    replicate_means,
    unit_sums,
)
from reasonbench.analysis.consistency import PairOutcome
from reasonbench.analysis.methods import SettingsError
from reasonbench.analysis.metrics import METRICS, SUBGROUPS
from reasonbench.analysis.record import (
    Comparison,
    Effect,
    MethodIntervals,
    Repair,
    SplitInference,
)
from reasonbench.analysis.scoring import Scored
from reasonbench.controls import CONTROL_KINDS

__all__ = [
    "ComparisonSpec",
    "RepairSpec",
    "SplitDesign",
    "co_primary",
    "compare",
    "design",
    "distribution",
    "holm_within",
    "method_intervals",
    "repair",
]

PerSeed = Mapping[int, Sequence[Scored]]
PairsPerSeed = Mapping[int, Sequence[PairOutcome]]


def _keys(spec: Mapping[str, object], required: set[str], optional: set[str], what: str) -> None:
    """Refuse a config entry with missing or unknown keys, naming the entry and the keys."""
    keys = required | optional
    missing = sorted(required - set(spec))
    unknown = sorted(set(spec) - keys)
    if missing or unknown:
        raise SettingsError(
            f"{what} {dict(spec)!r}: "
            + (f"missing {missing}" if missing else f"unknown key(s) {unknown}")
            + f" (keys: {', '.join(sorted(keys))})"
        )


@dataclass(frozen=True)
class ComparisonSpec:
    """A configured comparison: a − b on ``split``, in Holm family ``family``, with CIs of the
    difference within each value of the ``by`` subgroups, on the co-primary outcomes or on the
    ``metrics`` named (any per-example rate, e.g. ``endpoint_accuracy``)."""

    name: str
    a: str
    b: str
    family: str
    split: str = "test_locked"
    by: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()  # empty: the co-primary outcomes

    @classmethod
    def of(cls, spec: Mapping[str, object]) -> ComparisonSpec:
        """From one ``comparisons:`` entry; unknown or missing keys and subgroups are refused."""
        _keys(spec, {"name", "a", "b"}, {"family", "split", "by", "metrics"}, "comparison")
        name = str(spec["name"])
        by = spec.get("by") or ()
        for family in by if isinstance(by, list | tuple) else (by,):
            if str(family) not in SUBGROUPS:
                raise SettingsError(f"comparison {name}: by: {SUBGROUPS.unknown(str(family))}")
        metrics = spec.get("metrics") or ()
        metrics = (
            tuple(str(m) for m in metrics) if isinstance(metrics, list | tuple) else (str(metrics),)
        )
        for metric in metrics:
            if metric not in METRICS:
                raise SettingsError(f"comparison {name}: metrics: {METRICS.unknown(metric)}")
        return cls(
            name,
            str(spec["a"]),
            str(spec["b"]),
            str(spec.get("family") or name),  # undeclared: a family of its own
            str(spec.get("split") or "test_locked"),
            tuple(str(x) for x in by) if isinstance(by, list | tuple) else (str(by),),
            metrics,
        )

    def outcomes(self, applicable: Mapping[str, Sequence[str]]) -> list[str]:
        """What is compared: the named metrics (else the co-primary outcomes) that apply to the
        targets of both methods (``applicable``: method -> the metrics that apply to it)."""
        wanted = self.metrics or tuple(co_primary())
        mine, theirs = applicable.get(self.a, ()), applicable.get(self.b, ())
        return [m for m in wanted if m in mine and m in theirs]


@dataclass(frozen=True)
class RepairSpec:
    """A configured consistency repair: ``after`` − ``before`` of the ``kind`` control's paired
    consistency on the locked controls (e.g. permutation consistency after augmentation)."""

    name: str
    after: str
    before: str
    kind: str

    @classmethod
    def of(cls, spec: Mapping[str, object]) -> RepairSpec:
        """From one ``repairs:`` entry; unknown or missing keys and control kinds are refused."""
        _keys(spec, {"name", "after", "before", "kind"}, set(), "repair")
        kind = str(spec["kind"])
        if kind not in CONTROL_KINDS:
            raise SettingsError(f"repair {spec['name']}: kind: {CONTROL_KINDS.unknown(kind)}")
        return cls(str(spec["name"]), str(spec["after"]), str(spec["before"]), kind)


@dataclass(frozen=True)
class SplitDesign:
    split: str
    ids: tuple[str, ...]  # sorted example ids
    units: tuple[str, ...]  # sorted unit ids (index = a unit's column in the draws)
    unit_index: NDArray[np.intp]  # per example id, its unit
    n_units: int
    subgroup_of: Mapping[str, tuple[str, ...]]  # subgroup family -> value per example id
    draws: SplitDraws
    methods: Mapping[str, PerSeed]  # method -> seed -> scored rows of this split


def design(
    split: str, methods: Mapping[str, PerSeed], replicates: int, seed: int
) -> SplitDesign | None:
    """The bootstrap design of ``split`` from any method's rows (all cover the same examples)."""
    if not methods:
        return None
    rows = next(iter(next(iter(methods.values())).values()))
    gold = {r.gold.example_id: r.gold for r in rows}
    ids = tuple(sorted(gold))
    units = sorted({g.unit_id for g in gold.values()})
    position = {u: i for i, u in enumerate(units)}
    unit_index = np.array([position[gold[i].unit_id] for i in ids], dtype=np.intp)
    subgroup_of = {
        name: tuple(SUBGROUPS.get(name)(gold[i]) for i in ids) for name in SUBGROUPS.names()
    }
    draws = SplitDraws(split, len(units), replicates, seed)
    return SplitDesign(
        split, ids, tuple(units), unit_index, len(units), subgroup_of, draws, methods
    )


def co_primary() -> list[str]:
    return [n for n in METRICS if METRICS.get(n).co_primary]


def _matrix(per_seed: PerSeed, ids: Sequence[str], metric: str) -> FloatArray:
    """Seeds × examples of the metric's per-example value (its denominator is 1 per example)."""
    index = {example_id: j for j, example_id in enumerate(ids)}
    observe = METRICS.get(metric).observe
    out = np.zeros((len(per_seed), len(ids)))
    for s, seed in enumerate(sorted(per_seed)):
        for r in per_seed[seed]:
            seen = observe(r)
            if seen is None or seen[1] != 1.0:
                raise SettingsError(
                    f"metric {metric} is bootstrapped and compared only where it counts every "
                    "example once (a rate over all examples of the split)"
                )
            out[s, index[r.gold.example_id]] = seen[0]
    return out


def distribution(
    d: SplitDesign, method: str, metric: str, subgroup: tuple[str, str] | None = None
) -> tuple[float, FloatArray]:
    """(mean over the method's own seeds, bootstrap distribution), within ``subgroup`` if given."""
    per_seed = d.methods[method]
    matrix = _matrix(per_seed, d.ids, metric)
    index = d.unit_index
    if subgroup is not None:
        family, value = subgroup
        mask = np.array([v == value for v in d.subgroup_of[family]])
        matrix, index = matrix[:, mask], index[mask]
    sums = unit_sums(matrix, index, d.n_units)
    sizes = np.bincount(index, minlength=d.n_units).astype(np.float64)
    dist = replicate_means(sums, sizes, d.draws.resamples(tuple(sorted(per_seed))))
    # every seed predicts every example, so the mean over seeds of per-seed means is this
    return float(matrix.mean()), dist


def method_intervals(d: SplitDesign, outcomes: Mapping[str, Sequence[str]]) -> SplitInference:
    """CIs of each method's applicable co-primary outcomes (``outcomes``: method -> names)."""
    methods = {}
    for method in sorted(d.methods):
        intervals = {}
        for metric in outcomes[method]:
            estimate, dist = distribution(d, method, metric)
            intervals[metric] = percentile_interval(estimate, dist)
        methods[method] = MethodIntervals(len(d.methods[method]), intervals)
    return SplitInference(d.n_units, methods)


def _difference(
    d: SplitDesign, a: str, b: str, metric: str, subgroup: tuple[str, str] | None = None
) -> tuple[float, FloatArray]:
    est_a, dist_a = distribution(d, a, metric, subgroup)
    est_b, dist_b = distribution(d, b, metric, subgroup)
    return est_a - est_b, dist_a - dist_b


def compare(spec: ComparisonSpec, d: SplitDesign | None, outcomes: Sequence[str]) -> Comparison:
    """a − b on every shared co-primary outcome (``outcomes``); ``p_holm`` is set later."""
    base = Comparison(spec.name, spec.a, spec.b, spec.family, spec.split, "not run")
    if d is None or spec.a not in d.methods or spec.b not in d.methods:
        return base
    effects = {}
    for metric in outcomes:
        estimate, diff = _difference(d, spec.a, spec.b, metric)
        ci = percentile_interval(estimate, diff)
        p = paired_p_value(diff)
        effects[metric] = Effect(ci.estimate, ci.low, ci.high, p, p)
    breakdown: dict[str, dict[str, dict[str, Interval]]] = {}
    for family in spec.by:
        values = sorted(set(d.subgroup_of[family]))
        breakdown[family] = {
            value: {
                metric: percentile_interval(
                    *_difference(d, spec.a, spec.b, metric, (family, value))
                )
                for metric in outcomes
            }
            for value in values
        }
    return replace(base, status="ok", outcomes=effects, subgroups=breakdown)


def _consistency(
    d: SplitDesign, per_seed: PairsPerSeed, kind: str, stratum: str | None
) -> tuple[float, FloatArray] | None:
    """(mean over the arm's seeds of its consistency, bootstrap distribution) of the ``kind``
    pairs (of ``stratum``, or all), ``None`` without a checkable pair. Checkability depends on
    the target and gold alone, so every seed has the same checkable pairs per unit."""
    position = {u: i for i, u in enumerate(d.units)}
    seeds = sorted(per_seed)
    sums = np.zeros((len(seeds), d.n_units))
    sizes: FloatArray | None = None
    for s, seed in enumerate(seeds):
        mine = [
            o
            for o in per_seed[seed]
            if o.kind == kind and o.checkable and (stratum is None or o.stratum == stratum)
        ]
        index = np.array([position[o.unit_id] for o in mine], dtype=np.intp)
        consistent = np.array([float(o.consistent) for o in mine])
        sums[s] = np.bincount(index, weights=consistent, minlength=d.n_units)
        checkable = np.bincount(index, minlength=d.n_units).astype(np.float64)
        if sizes is not None and not np.array_equal(sizes, checkable):
            raise ValueError(f"{kind} pairs: seeds {seeds} disagree on the checkable pairs")
        sizes = checkable
    if sizes is None or not sizes.sum():
        return None
    dist = replicate_means(sums, sizes, d.draws.resamples(tuple(seeds)))
    return float(sums.sum() / (len(seeds) * sizes.sum())), dist


def repair(spec: RepairSpec, d: SplitDesign | None, pairs: Mapping[str, PairsPerSeed]) -> Repair:
    """after − before of the kind's consistency, pooled and per stratum. The unit draws W are
    the locked test's, shared by both arms (their pairs have the same parents); the seed draws
    are one per seed set, so they are shared (paired) only when both arms have the same seeds."""
    base = Repair(spec.name, spec.after, spec.before, spec.kind, "not run")
    after, before = pairs.get(spec.after), pairs.get(spec.before)
    if d is None or not after or not before:
        return base
    strata = sorted({o.stratum for p in (after, before) for seed in p.values() for o in seed})
    intervals: dict[str | None, Interval] = {}
    for stratum in [None, *strata]:
        a = _consistency(d, after, spec.kind, stratum)
        b = _consistency(d, before, spec.kind, stratum)
        if a is not None and b is not None:
            intervals[stratum] = percentile_interval(a[0] - b[0], a[1] - b[1])
    return replace(
        base,
        status="ok",
        seeds_after=sorted(after),
        seeds_before=sorted(before),
        seeds_paired=sorted(after) == sorted(before),
        pooled=intervals.get(None),
        strata={s: ci for s, ci in intervals.items() if s is not None},
    )


def holm_within(comparisons: Sequence[Comparison]) -> dict[str, Comparison]:
    """Holm-adjust each family's (comparison, outcome) p-values among themselves only."""
    families: dict[str, dict[str, float]] = {}
    for c in comparisons:
        for metric, effect in c.outcomes.items():
            families.setdefault(c.family, {})[f"{c.name}\x00{metric}"] = effect.p_value
    adjusted = {key: p for family in families.values() for key, p in holm(family).items()}
    out = {}
    for c in comparisons:
        effects = {
            m: replace(e, p_holm=adjusted[f"{c.name}\x00{m}"]) for m, e in c.outcomes.items()
        }
        out[c.name] = replace(c, outcomes=effects)
    return out
