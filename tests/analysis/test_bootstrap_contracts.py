"""Bootstrap contracts beyond the vectorised formula: the documented random streams (frozen
outputs depend on them), what is shared between methods, non-finite replicates, and Holm and
the p-value against their definitions (found by mutation testing, docs/testing.md)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.bootstrap import (
    Interval,
    Resamples,
    SplitDraws,
    _entropy,
    holm,
    paired_p_value,
    percentile_interval,
    replicate_means,
)


def test_entropy_spells_names_and_signs_apart() -> None:
    assert _entropy(7, "ab", -3, 0) == [7, 0x7FFF, 97, 98, 0x7FFE, 3, 0]
    assert len({tuple(_entropy(x)) for x in (1, -1, "1", "")}) == 4


def test_split_draws_follow_the_documented_streams() -> None:
    draws = SplitDraws("test_locked", n_units=9, replicates=40, seed=5)
    rng = np.random.default_rng([5, 0x7FFF, *b"units", 0x7FFF, *b"test_locked"])
    expected = rng.multinomial(9, np.full(9, 1 / 9), size=40)
    assert np.array_equal(draws.units, expected) and draws.units.dtype == np.float64
    seeds = draws.resamples((2, 4, 6))
    rng = np.random.default_rng([5, 0x7FFF, *b"seeds", 0x7FFF, *b"test_locked", 3, 2, 4, 6])
    assert np.array_equal(seeds.seeds, rng.multinomial(3, np.full(3, 1 / 3), size=40))
    assert seeds.units is draws.units and seeds.seeds.dtype == np.float64
    assert (draws.split, draws.replicates, draws.seed) == ("test_locked", 40, 5)


def test_methods_with_the_same_seeds_share_their_draws() -> None:
    draws = SplitDraws("s", n_units=6, replicates=30, seed=0)
    first = draws.resamples((0, 1, 2))
    other = draws.resamples((0,))
    assert draws.resamples((0, 1, 2)).seeds is first.seeds  # paired: seed s with seed s
    assert other.seeds.shape == (30, 1) and np.all(other.seeds == 1)
    assert np.all(first.seeds.sum(axis=1) == 3) and np.all(draws.units.sum(axis=1) == 6)
    # the order in which seed sets are asked for does not matter
    again = SplitDraws("s", n_units=6, replicates=30, seed=0)
    assert np.array_equal(again.resamples((0, 1, 2)).seeds, first.seeds)
    assert not np.array_equal(SplitDraws("t", 6, 30, 0).units, draws.units)


def test_resamples_draw_counts() -> None:
    draws = Resamples.draw(5, 3, 20, np.random.default_rng(0))
    assert draws.units.shape == (20, 5) and draws.seeds.shape == (20, 3)
    assert np.all(draws.units.sum(axis=1) == 5) and np.all(draws.seeds.sum(axis=1) == 3)
    assert draws.units.dtype == draws.seeds.dtype == np.float64


def test_an_empty_replicate_is_nan_without_a_warning() -> None:
    sums, sizes = np.array([[1.0, 2.0]]), np.array([2.0, 3.0])
    resamples = Resamples(np.array([[2.0, 0.0], [0.0, 0.0]]), np.array([[1.0], [1.0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        means = replicate_means(sums, sizes, resamples)
    assert means[0] == pytest.approx(0.5) and np.isnan(means[1])


def test_intervals_ignore_non_finite_replicates() -> None:
    values = np.concatenate([np.arange(101.0), [np.nan, np.inf]])
    ci = percentile_interval(3.0, values)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((3.0, 2.5, 97.5))
    ci = percentile_interval(3.0, values, level=0.9)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((3.0, 5.0, 95.0))
    assert Interval(1.0, 0.5, 2.0).to_json() == {"estimate": 1.0, "low": 0.5, "high": 2.0}


def test_p_value_by_hand() -> None:
    assert paired_p_value(np.array([0.0, 1.0, 2.0, -1.0])) == 1.0  # 2 · (2 + 1) / 5 capped
    assert paired_p_value(np.array([1.0] * 9 + [0.0, np.nan])) == pytest.approx(4 / 11)
    assert paired_p_value(np.array([-1.0] * 9 + [0.0])) == pytest.approx(4 / 11)


def brute_holm(p: dict[str, float]) -> dict[str, float]:
    keys = sorted(p, key=lambda k: (p[k], k))
    m = len(keys)
    return {
        k: max(min(1.0, (m - j) * p[keys[j]]) for j in range(i + 1)) for i, k in enumerate(keys)
    }


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdef"), st.floats(0, 1), max_size=6))
def test_holm_matches_its_definition(p: dict[str, float]) -> None:
    assert holm(p) == pytest.approx(brute_holm(p))
    assert holm({"b": 0.01, "a": 0.01, "c": 0.5}) == pytest.approx({"a": 0.03, "b": 0.03, "c": 0.5})
