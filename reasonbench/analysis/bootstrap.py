"""Hierarchical bootstrap over independent units and paired seeds, fully vectorised.

Seeds are crossed with items (every seed predicts every example), so units and seeds are
resampled *independently*: each replicate draws units with replacement (multinomial counts W,
B × U) and seeds with replacement (counts V, B × S). With per-(seed, unit) sums of correct
answers C (S × U) and unit sizes n (U), a replicate's accuracy is

    Σ_s V[b,s] · (W[b] · C[s]) / (Σ_s V[b,s] · (W[b] · n))

— two matrix products, no Python loop over replicates. Paired comparisons use the *same* W for
both methods (the same examples are resampled). Seeds: :class:`SplitDraws` draws V once per
**seed set**, so two methods with the same seeds share V (seed s of one is paired with seed s of
the other), while methods with different seed sets (a 3-seed run beside a 5-seed one, a
deterministic baseline with one seed) resample their own seeds independently — each method's
estimate is the mean over its own seeds, never a cyclic reuse of them (docs/analysis.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Resamples:
    """Multinomial resampling counts shared by every statistic of one analysis."""

    units: FloatArray  # B × U
    seeds: FloatArray  # B × S

    @classmethod
    def draw(
        cls, n_units: int, n_seeds: int, replicates: int, rng: np.random.Generator
    ) -> Resamples:
        units = rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=replicates)
        seeds = rng.multinomial(n_seeds, np.full(n_seeds, 1.0 / n_seeds), size=replicates)
        return cls(units.astype(np.float64), seeds.astype(np.float64))


def _entropy(*parts: int | str) -> list[int]:
    """Seed material from ints and names, independent of PYTHONHASHSEED and call order."""
    out: list[int] = []
    for part in parts:
        if isinstance(part, str):
            out += [0x7FFF, *part.encode()]
        else:
            out += [part] if part >= 0 else [0x7FFE, -part]
    return out


class SplitDraws:
    """The resampling counts of one split: unit draws W shared by every method and comparison of
    the split, and seed draws V per seed set, each from its own deterministic stream."""

    def __init__(self, split: str, n_units: int, replicates: int, seed: int) -> None:
        self.split, self.replicates, self.seed = split, replicates, seed
        rng = np.random.default_rng(_entropy(seed, "units", split))
        draws = rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=replicates)
        self.units = draws.astype(np.float64)
        self._seeds: dict[tuple[int, ...], FloatArray] = {}

    def resamples(self, seeds: tuple[int, ...]) -> Resamples:
        """W with the seed draws of ``seeds`` (the same array for every method with these seeds)."""
        if seeds not in self._seeds:
            rng = np.random.default_rng(
                _entropy(self.seed, "seeds", self.split, len(seeds), *seeds)
            )
            n = len(seeds)
            counts = rng.multinomial(n, np.full(n, 1.0 / n), size=self.replicates)
            self._seeds[seeds] = counts.astype(np.float64)
        return Resamples(self.units, self._seeds[seeds])


def unit_sums(
    correct: NDArray[np.generic], unit_index: NDArray[np.intp], n_units: int
) -> FloatArray:
    """Per seed and unit, the number of correct answers: (S × N) 0/1 → (S × U)."""
    values = np.asarray(correct, dtype=np.float64)
    out = np.zeros((values.shape[0], n_units))
    for s in range(values.shape[0]):  # loop over seeds (≤ 5), not over replicates
        out[s] = np.bincount(unit_index, weights=values[s], minlength=n_units)
    return out


def replicate_means(sums: FloatArray, sizes: FloatArray, resamples: Resamples) -> FloatArray:
    """Bootstrap distribution (B,) of the pooled mean for one method."""
    numerator = np.einsum("bs,bs->b", resamples.seeds, resamples.units @ sums.T)
    denominator = resamples.seeds.sum(axis=1) * (resamples.units @ sizes)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(numerator / denominator, dtype=np.float64)


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


def percentile_interval(estimate: float, replicates: FloatArray, level: float = 0.95) -> Interval:
    finite = replicates[np.isfinite(replicates)]
    alpha = (1 - level) / 2
    low, high = np.quantile(finite, [alpha, 1 - alpha])
    return Interval(float(estimate), float(low), float(high))


def paired_p_value(differences: FloatArray) -> float:
    """Two-sided bootstrap p-value of a paired difference against 0 (add-one smoothed)."""
    finite = differences[np.isfinite(differences)]
    b = finite.size
    below = (np.count_nonzero(finite <= 0) + 1) / (b + 1)
    above = (np.count_nonzero(finite >= 0) + 1) / (b + 1)
    return float(min(1.0, 2 * min(below, above)))


def holm(p_values: dict[str, float]) -> dict[str, float]:
    """Holm step-down adjusted p-values (monotone, capped at 1)."""
    order = sorted(p_values, key=lambda k: (p_values[k], k))
    m = len(order)
    adjusted: dict[str, float] = {}
    running = 0.0
    for rank, key in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[key]))
        adjusted[key] = running
    return adjusted
