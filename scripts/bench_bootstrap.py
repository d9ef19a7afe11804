"""Hierarchical bootstrap: vectorised vs a naive per-resample loop on the same data.

Synthetic predictions: 5 seeds × 2,400 examples in 102 units × 2 methods; 10,000 resamples.
Baseline (same run, same draws): ``naive_loop`` — for every replicate, gather the resampled
units' items for every resampled seed and average, in Python. Goal: ratio ≥ 100×, and the two
methods' CIs agree (they use identical draws, so any difference is floating-point noise; a
second, independently seeded vectorised run shows the Monte Carlo error).

Usage: python scripts/bench_bootstrap.py [--replicates 10000] [--naive-replicates 1000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from reasonbench.analysis.bootstrap import (
    Resamples,
    percentile_interval,
    replicate_means,
    unit_sums,
)


def synthetic(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    units = np.sort(rng.integers(0, 102, size=2400))
    units[:102] = np.arange(102)  # every unit present
    units = np.sort(units)
    difficulty = rng.normal(0, 0.1, 102)[units]
    a = rng.random((5, 2400)) < np.clip(0.97 + difficulty, 0, 1)
    b = rng.random((5, 2400)) < np.clip(0.955 + difficulty, 0, 1)
    return units, a, b


def naive(correct: np.ndarray, units: np.ndarray, draws: Resamples) -> np.ndarray:
    members = [np.flatnonzero(units == u) for u in range(draws.units.shape[1])]
    out = np.empty(draws.units.shape[0])
    for b in range(draws.units.shape[0]):
        num = den = 0.0
        for s, seed_count in enumerate(draws.seeds[b]):
            if not seed_count:
                continue
            for u, unit_count in enumerate(draws.units[b]):
                if unit_count:
                    items = correct[s, members[u]]
                    num += seed_count * unit_count * items.sum()
                    den += seed_count * unit_count * items.size
        out[b] = num / den
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--replicates", type=int, default=10_000)
    parser.add_argument(
        "--naive-replicates",
        type=int,
        default=10_000,
        help="replicates for the naive loop (its time is scaled to --replicates if fewer)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    units, a, b = synthetic(rng)
    sizes = np.bincount(units, minlength=102).astype(float)
    draws = Resamples.draw(102, 5, args.replicates, rng)

    start = time.perf_counter()
    diff_fast = replicate_means(unit_sums(a, units, 102), sizes, draws) - replicate_means(
        unit_sums(b, units, 102), sizes, draws
    )
    fast = time.perf_counter() - start

    k = min(args.naive_replicates, args.replicates)
    subset = Resamples(draws.units[:k], draws.seeds[:k])
    start = time.perf_counter()
    diff_slow = naive(a, units, subset) - naive(b, units, subset)
    slow = (time.perf_counter() - start) * args.replicates / k

    estimate = float(a.mean() - b.mean())
    ci_fast = percentile_interval(estimate, diff_fast[:k])
    ci_slow = percentile_interval(estimate, diff_slow)
    other = Resamples.draw(102, 5, args.replicates, np.random.default_rng(1))
    ci_other = percentile_interval(
        estimate,
        replicate_means(unit_sums(a, units, 102), sizes, other)
        - replicate_means(unit_sums(b, units, 102), sizes, other),
    )
    ci_all = percentile_interval(estimate, diff_fast)
    print(
        f"paired difference, 5 seeds x 2,400 examples in 102 units, {args.replicates:,} resamples"
    )
    print("| implementation | seconds | ")
    print("|---|---|")
    print(f"| vectorised (reasonbench) | {fast:.3f} |")
    scaled = f" (scaled from {k})" if k < args.replicates else ""
    print(f"| baseline: naive_loop{scaled} | {slow:.1f} |")
    print(f"| ratio | {slow / fast:,.0f}x |")
    print(
        f"largest CI endpoint difference, same draws: {max(abs(ci_fast.low - ci_slow.low), abs(ci_fast.high - ci_slow.high)):.2e}"
    )
    print(
        f"Monte Carlo scale (two independent draws): {max(abs(ci_all.low - ci_other.low), abs(ci_all.high - ci_other.high)):.2e}"
    )
    print(f"CI: [{ci_all.low:.4f}, {ci_all.high:.4f}] around {estimate:.4f}")
    print(f"goal ratio >= 100x: {'OK' if slow / fast >= 100 else 'MISSED'}")


if __name__ == "__main__":
    main()
