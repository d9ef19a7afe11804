"""Policy-invariance metrics, with clustered bootstrap CIs over independent units (clauses).

Inputs are a judge's parsed verdicts (``None`` = parse failure) on each prompt, one per run.
With ``r`` runs per prompt every statistic is an average over *run pairs*, so a sampling judge's
flip rate and jitter are estimated the same way and are comparable:

* **flip rate** — share of (base run, rewrite run) pairs whose verdicts differ, over all
  certified (item, rewrite) comparisons; per transform family (T1/T2/T4) and pooled;
* **jitter** — share of pairs of *repeated runs on the identical base prompt* that differ (0 for a
  deterministic judge); **Δflip** = flip rate − jitter;
* **R_dir** — of the verdict changes between the strict and the lax side of threshold-shift pairs,
  the share going deny → approve (the direction relaxing can move a verdict); **flip share** —
  that count over all strict/lax run pairs;
* **U_rate** — of the flips under certified rewrites, the share on *clear* items;
* **PIS** = max(0, 1 − (w1·Δflip + w2·(1 − R_dir) + w3·U_rate)·S), as seed 001 writes it (rule
  ``seed``); rule ``clipped`` reads max(0, Δflip) instead. Both are reported (``pis_by_rule``),
  ``pis`` is the configured one.

Parse failures: ``excluded`` drops run pairs with an unparsed side; ``imputed`` counts them as
flips (and, in threshold pairs, as non-directional flips). Jitter is a property of verdicts and
always excludes unparsed answers: under imputation the failures are charged to the flip rate,
not also to the jitter subtracted from it (else a judge that never parses would score Δflip 0).
R_dir is undefined without flips and U_rate without flips; in PIS they take the configured
fallbacks (default: R_dir 0 — a judge that never moves with the policy shows no sign of reading
it — and U_rate 0). PIS itself is undefined when no certified comparison could be counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from reasonbench.analysis.bootstrap import (
    FloatArray,
    Resamples,
    percentile_interval,
    replicate_means,
    unit_sums,
)
from reasonbench.invariance.report import (
    DELTA_FLIP_RULES,
    Comparison,
    Estimate,
    InvarianceReport,
    PairRuns,
    PisConfig,
    Repeat,
    Verdict,
)

__all__ = [
    "Comparison",
    "Estimate",
    "InvarianceReport",
    "REPLICATES",
    "PairRuns",
    "PisConfig",
    "Repeat",
    "excess",
    "invariance_report",
    "pis",
]

APPROVE, DENY = "approve", "deny"
HANDLINGS = ("excluded", "imputed")
DEFAULT_PIS = PisConfig()  # the original authors' weights
REPLICATES = 2000  # clustered-bootstrap replicates: the one default (the Judge Card's too)


def excess(delta_flip: FloatArray, rule: str) -> FloatArray:
    """Δflip (a value or bootstrap draws) as PIS reads it under ``rule`` (DELTA_FLIP_RULES)."""
    return np.maximum(0.0, delta_flip) if rule == "clipped" else delta_flip


def pis(
    delta_flip: float, r_dir: float, u_rate: float, config: PisConfig, rule: str | None = None
) -> float:
    """PIS under ``rule`` (default: the config's ``delta_flip_rule``)."""
    counted = float(excess(np.asarray(delta_flip), rule or config.delta_flip_rule))
    penalty = config.w1 * counted + config.w2 * (1.0 - r_dir) + config.w3 * u_rate
    return max(0.0, 1.0 - penalty * config.scale)


def _pairs(a: Sequence[Verdict], b: Sequence[Verdict] | None) -> list[tuple[Verdict, Verdict]]:
    """Cross pairs of two run lists, or the unordered pairs within one (``b is None``)."""
    return list(combinations(a, 2)) if b is None else [(x, y) for x in a for y in b]


def _flip_counts(pairs: list[tuple[Verdict, Verdict]], handling: str) -> tuple[float, float]:
    """(flipping pairs, counted pairs) under the parse-failure handling."""
    valid = [(x, y) for x, y in pairs if x is not None and y is not None]
    flips = sum(x != y for x, y in valid)
    if handling == "excluded":
        return float(flips), float(len(valid))
    return float(flips + len(pairs) - len(valid)), float(len(pairs))


@dataclass
class _Ratio:
    """Per-row numerator/denominator, kept per unit so the bootstrap can resample units."""

    units: list[str]
    num: list[float]
    den: list[float]

    def add(self, unit: str, num: float, den: float) -> None:
        self.units.append(unit)
        self.num.append(num)
        self.den.append(den)

    @property
    def value(self) -> float | None:
        den = sum(self.den)
        return sum(self.num) / den if den else None


def _ratio() -> _Ratio:
    return _Ratio([], [], [])


class _Boot:
    """One set of unit resamples shared by every statistic (paired differences stay paired)."""

    def __init__(self, units: Sequence[str], replicates: int, seed: int) -> None:
        self.index = {u: i for i, u in enumerate(sorted(set(units)))}
        n = max(1, len(self.index))
        self.draws = Resamples.draw(n, 1, replicates, np.random.default_rng(seed))

    def dist(self, r: _Ratio) -> FloatArray:
        n = max(1, len(self.index))
        idx = np.array([self.index[u] for u in r.units], dtype=np.intp)
        sums = unit_sums(np.array([r.num], dtype=np.float64), idx, n)
        sizes = np.bincount(idx, weights=np.array(r.den, dtype=np.float64), minlength=n)
        return replicate_means(sums, sizes.astype(np.float64), self.draws)


def _estimate(value: float | None, dist: FloatArray, n: float) -> Estimate:
    if value is None or not np.isfinite(dist).any():
        return Estimate(value, None, None, int(n))
    ci = percentile_interval(value, dist)
    return Estimate(value, ci.low, ci.high, int(n))


@dataclass
class _Rewrites:
    """Flip ratios of base-vs-rewrite comparisons: per transform (and pooled), per variant, and
    the share of flips whose rewrite is clear (U)."""

    flips: dict[str, _Ratio]
    clear: _Ratio
    variants: dict[str, _Ratio]


def _tally_rewrites(comparisons: Sequence[Comparison], handling: str) -> _Rewrites:
    transforms = sorted({c.transform for c in comparisons})
    out = _Rewrites(
        {t: _ratio() for t in [*transforms, "pooled"]},
        _ratio(),
        {v: _ratio() for v in sorted({c.variant for c in comparisons})},
    )
    for c in comparisons:
        num, den = _flip_counts(_pairs(c.base, c.rewrite), handling)
        if den:  # rows average their run pairs, so every comparison weighs the same
            for key in (c.transform, "pooled"):
                out.flips[key].add(c.unit, num / den, 1.0)
            out.variants[c.variant].add(c.unit, num / den, 1.0)
            out.clear.add(c.unit, num / den if c.clear else 0.0, num / den)
    return out


def _tally_jitter(repeats: Sequence[Repeat]) -> _Ratio:
    """How often a judge's repeated runs of one item disagree: the noise floor of a flip."""
    jitter = _ratio()
    for repeat in repeats:
        num, den = _flip_counts(_pairs(repeat.runs, None), "excluded")
        if den:
            jitter.add(repeat.unit, num / den, 1.0)
    return jitter


@dataclass
class _Directions:
    """Strict/lax pairs: flips toward the lax verdict (R_dir), their share, and sensitivity."""

    directional: _Ratio
    shares: _Ratio
    expected: list[bool]
    sensitive: list[float]


def _tally_directions(pairs: Sequence[PairRuns], handling: str) -> _Directions:
    out = _Directions(_ratio(), _ratio(), [], [])
    for p in pairs:
        runs = _pairs(p.strict, p.lax)
        num, den = _flip_counts(runs, handling)
        to_lax = sum((x, y) == (DENY, APPROVE) for x, y in runs)
        out.directional.add(p.unit, float(to_lax), num)
        if den:
            out.shares.add(p.unit, to_lax / den, 1.0)
        out.expected.append(p.expected == "to_lax")
        if p.expected == "to_lax" and runs:
            out.sensitive.append(to_lax / len(runs))
    return out


def _fallback(values: FloatArray, default: float) -> FloatArray:
    return np.where(np.isfinite(values), values, default)


def _pis_dist(
    config: PisConfig, delta_dist: FloatArray, r_dist: FloatArray, u_dist: FloatArray, rule: str
) -> FloatArray:
    """PIS per bootstrap draw; a draw with no flips reads the config's no-flip values."""
    penalty = (
        config.w1 * excess(_fallback(delta_dist, 0.0), rule)
        + config.w2 * (1.0 - _fallback(r_dist, config.r_dir_without_flips))
        + config.w3 * _fallback(u_dist, config.u_rate_without_flips)
    )
    return np.maximum(0.0, 1.0 - penalty * config.scale)


def invariance_report(
    comparisons: Sequence[Comparison],
    repeats: Sequence[Repeat],
    pairs: Sequence[PairRuns],
    config: PisConfig = DEFAULT_PIS,
    handling: str = "excluded",
    replicates: int = REPLICATES,
    seed: int = 0,
) -> InvarianceReport:
    if handling not in HANDLINGS:
        raise ValueError(f"handling must be one of {HANDLINGS}, got {handling!r}")
    rewrites = _tally_rewrites(comparisons, handling)
    jitter = _tally_jitter(repeats)
    dirs = _tally_directions(pairs, handling)
    flips, clear, directional = rewrites.flips, rewrites.clear, dirs.directional
    boot = _Boot([*flips["pooled"].units, *jitter.units, *directional.units], replicates, seed)
    jitter_value = jitter.value if jitter.value is not None else 0.0
    jitter_dist = boot.dist(jitter) if jitter.units else np.zeros(len(boot.draws.units))
    out_flip, out_delta = {}, {}
    for key, ratio in flips.items():
        dist = boot.dist(ratio)
        out_flip[key] = _estimate(ratio.value, dist, len(ratio.units))
        delta = None if ratio.value is None else ratio.value - jitter_value
        out_delta[key] = _estimate(delta, dist - jitter_dist, len(ratio.units))
    r_dist, u_dist = boot.dist(directional), boot.dist(clear)
    delta_dist = boot.dist(flips["pooled"]) - jitter_dist
    delta_value = out_delta["pooled"].value
    by_rule = {}
    for rule in DELTA_FLIP_RULES:
        pis_value = None
        if delta_value is not None:  # without a single counted comparison there is no evidence
            pis_value = pis(
                delta_value,
                config.r_dir_without_flips if directional.value is None else directional.value,
                config.u_rate_without_flips if clear.value is None else clear.value,
                config,
                rule,
            )
        rule_dist = _pis_dist(config, delta_dist, r_dist, u_dist, rule)
        by_rule[rule] = _estimate(pis_value, rule_dist, len(flips["pooled"].units))
    return InvarianceReport(
        handling=handling,
        flip=out_flip,
        jitter=_estimate(jitter.value, jitter_dist, len(jitter.units)),
        delta_flip=out_delta,
        r_dir=_estimate(directional.value, r_dist, sum(directional.den)),
        flip_share=_estimate(dirs.shares.value, boot.dist(dirs.shares), len(dirs.shares.units)),
        expected_share=_mean(dirs.expected),
        sensitivity=_mean(dirs.sensitive),
        u_rate=_estimate(clear.value, u_dist, sum(clear.den)),
        flips_clear=sum(clear.num),
        flips_total=sum(clear.den),
        pis=by_rule[config.delta_flip_rule],
        pis_by_rule=by_rule,
        by_variant={k: v.value for k, v in rewrites.variants.items()},
    )


def _mean(values: Sequence[float | bool]) -> float | None:
    return float(sum(values)) / len(values) if values else None
