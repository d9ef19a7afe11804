"""Bootstrap: agrees with a per-replicate loop, covers a known effect; Holm on a hand case."""

from __future__ import annotations

import numpy as np
import pytest

from reasonbench.analysis.bootstrap import (
    Resamples,
    holm,
    paired_p_value,
    percentile_interval,
    replicate_means,
    unit_sums,
)


def test_holm_hand_computed() -> None:
    # sorted p: 0.01 (×3 = 0.03), 0.02 (×2 = 0.04), 0.04 (×1 = 0.04, monotone max)
    assert holm({"a": 0.04, "b": 0.01, "c": 0.02}) == pytest.approx(
        {"a": 0.04, "b": 0.03, "c": 0.04}
    )
    assert holm({"x": 0.6, "y": 0.7}) == {"x": 1.0, "y": 1.0}


def test_vectorised_equals_loop_on_the_same_draws() -> None:
    rng = np.random.default_rng(0)
    units = rng.integers(0, 12, size=300)
    correct = rng.random((5, 300)) < 0.7
    sums = unit_sums(correct, units, 12)
    sizes = np.bincount(units, minlength=12).astype(float)
    draws = Resamples.draw(12, 5, 50, rng)
    fast = replicate_means(sums, sizes, draws)
    for b in range(50):
        num = den = 0.0
        for s in range(5):
            for u in range(12):
                weight = draws.seeds[b, s] * draws.units[b, u]
                num += weight * correct[s, units == u].sum()
                den += weight * (units == u).sum()
        assert fast[b] == pytest.approx(num / den)


def test_ci_covers_a_known_effect() -> None:
    """Synthetic data with unit and seed random effects: the 95% CI of a paired difference
    covers the true effect in most of 40 simulated studies (Monte Carlo, generous bound)."""
    true_effect = 0.05
    covered = 0
    rng = np.random.default_rng(1)
    for _ in range(40):
        n_units, per_unit, n_seeds = 60, 20, 5
        units = np.repeat(np.arange(n_units), per_unit)
        unit_effect = rng.normal(0, 0.08, n_units)[units]
        base = 0.7 + unit_effect
        a = rng.random((n_seeds, units.size)) < np.clip(
            base + rng.normal(0, 0.01, (n_seeds, 1)), 0, 1
        )
        b = rng.random((n_seeds, units.size)) < np.clip(
            base + true_effect + rng.normal(0, 0.01, (n_seeds, 1)), 0, 1
        )
        sizes = np.bincount(units).astype(float)
        draws = Resamples.draw(n_units, n_seeds, 2000, rng)
        diff = replicate_means(unit_sums(b, units, n_units), sizes, draws) - replicate_means(
            unit_sums(a, units, n_units), sizes, draws
        )
        ci = percentile_interval(float(b.mean() - a.mean()), diff)
        covered += ci.low <= true_effect <= ci.high
    assert covered >= 32  # nominal 38/40; allow Monte Carlo error


def test_p_value_small_for_a_clear_effect_and_large_for_none() -> None:
    assert paired_p_value(np.full(999, 0.03)) == pytest.approx(2 / 1000)
    assert paired_p_value(np.linspace(-1, 1, 1001)) == pytest.approx(1.0, abs=0.01)
