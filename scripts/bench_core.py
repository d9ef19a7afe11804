"""Core speed and certification-cost benchmark.

1. Cube + receipt throughput (cases/s) for k = 3 through a small adjudicator over real states,
   against a named baseline measured in the same run: ``naive_powerset`` (frozenset hybrids and a
   set-based minimality check, the textbook definition).
2. Mean adaptive queries as a fraction of the 2^k - 2 interior cells, k = 3..10, on random
   monotone adjudicators (weighted threshold: the verdict flips once enough weight is replaced)
   and on unstructured random tables (endpoints forced to differ).

Usage: python scripts/bench_core.py [--cases N] [--trials N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

from reasonbench.core import (
    Cube,
    EvaluatorState,
    certify_adaptive,
    execute_cube,
    receipt_of,
)

LABELS = frozenset({"approve", "deny", "refer"})


class ThresholdAdjudicator:
    """approve iff grounds >= norm threshold; refer without authority."""

    labels = LABELS

    def adjudicate(self, state: EvaluatorState[int]) -> str:
        grounds, norm, authority = state.components
        if not authority:
            return "refer"
        return "approve" if grounds >= norm else "deny"


def random_states(
    rng: random.Random, n: int
) -> list[tuple[EvaluatorState[int], EvaluatorState[int]]]:
    pairs = []
    for _ in range(n):
        old = EvaluatorState.of(G=rng.randint(0, 20), N=rng.randint(0, 20), A=rng.randint(0, 4))
        new = EvaluatorState.of(G=rng.randint(0, 20), N=rng.randint(0, 20), A=rng.randint(0, 4))
        pairs.append((old, new))
    return pairs


def naive_receipt(
    adjudicator: ThresholdAdjudicator, old: EvaluatorState[int], new: EvaluatorState[int]
) -> list[frozenset[str]]:
    """Baseline: build every hybrid from frozensets of names, then check minimality by subsets."""
    names = old.sources
    verdict: dict[frozenset[str], str] = {}
    for size in range(len(names) + 1):
        for subset in combinations(names, size):
            chosen = frozenset(subset)
            parts = {n: (new[n] if n in chosen else old[n]) for n in names}
            verdict[chosen] = adjudicator.adjudicate(EvaluatorState.of(**parts))
    full = frozenset(names)
    if verdict[frozenset()] == verdict[full]:
        return []
    sufficient = [s for s, v in verdict.items() if v == verdict[full]]
    return [s for s in sufficient if not any(t < s for t in sufficient)]


def throughput(n: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    pairs = random_states(rng, n)
    adjudicator = ThresholdAdjudicator()
    start = time.perf_counter()
    fast = [receipt_of(execute_cube(adjudicator, o, w)).family() for o, w in pairs]
    fast_rate = n / (time.perf_counter() - start)
    start = time.perf_counter()
    slow = [naive_receipt(adjudicator, o, w) for o, w in pairs]
    slow_rate = n / (time.perf_counter() - start)
    for a, b in zip(
        fast, slow, strict=True
    ):  # the baseline must agree, or the ratio is meaningless
        assert sorted(map(sorted, a)) == sorted(map(sorted, b))
    return fast_rate, slow_rate


def naive_minimal(cube: Cube) -> list[frozenset[int]]:
    """Baseline for receipts alone: every sufficient set vs every other, as frozensets."""
    cells = {frozenset(i for i in range(cube.k) if m >> i & 1): cube[m] for m in range(1 << cube.k)}
    if cube.old == cube.new:
        return []
    sufficient = [s for s, v in cells.items() if v == cube.new]
    return [s for s in sufficient if not any(t < s for t in sufficient)]


def receipt_rate(k: int, n: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    cubes = [random_cube(k, rng) if i % 2 else monotone_cube(k, rng) for i in range(n)]
    start = time.perf_counter()
    fast = [receipt_of(c).sets for c in cubes]
    fast_rate = n / (time.perf_counter() - start)
    start = time.perf_counter()
    slow = [naive_minimal(c) for c in cubes]
    slow_rate = n / (time.perf_counter() - start)
    for a, b in zip(fast, slow, strict=True):
        assert sorted(a) == sorted(sum(1 << i for i in s) for s in b)
    return fast_rate, slow_rate


def monotone_cube(k: int, rng: random.Random) -> Cube:
    weights = [rng.random() for _ in range(k)]
    threshold = rng.uniform(0.05, 1.0) * sum(weights)
    verdicts = []
    for mask in range(1 << k):
        replaced = sum(w for i, w in enumerate(weights) if mask >> i & 1)
        verdicts.append("approve" if replaced >= threshold else "deny")
    verdicts[0], verdicts[-1] = "deny", "approve"
    return Cube(tuple(f"S{i}" for i in range(k)), tuple(verdicts))


def random_cube(k: int, rng: random.Random) -> Cube:
    verdicts = [rng.choice(("approve", "deny", "refer")) for _ in range(1 << k)]
    verdicts[0], verdicts[-1] = "deny", "approve"
    return Cube(tuple(f"S{i}" for i in range(k)), tuple(verdicts))


def mean_query_fraction(kind: str, k: int, trials: int, rng: random.Random) -> float:
    make = monotone_cube if kind == "monotone" else random_cube
    total = 0.0
    for _ in range(trials):
        cube = make(k, rng)
        certificate = certify_adaptive(cube.oracle(), cube.sources)
        assert certificate.receipt == receipt_of(cube)
        total += certificate.queries / certificate.max_queries
    return total / trials


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    fast, slow = throughput(args.cases, args.seed)
    print(f"cube + receipt throughput, k = 3, {args.cases} cases")
    print("| implementation | cases/s |")
    print("|---|---|")
    print(f"| reasonbench (bitmask cells) | {fast:,.0f} |")
    print(f"| baseline: naive_powerset | {slow:,.0f} |")
    print(f"| ratio | {fast / slow:.2f}x |")
    print()
    print("receipt from an executed cube (no adjudication), 2,000 cubes per k")
    print("| k | reasonbench cubes/s | baseline naive_powerset cubes/s | ratio |")
    print("|---|---|---|---|")
    for k in (3, 6, 8):
        fast_r, slow_r = receipt_rate(k, 2_000, args.seed)
        print(f"| {k} | {fast_r:,.0f} | {slow_r:,.0f} | {fast_r / slow_r:.1f}x |")
    print()
    rng = random.Random(args.seed)
    print(
        f"adaptive certification: mean interior queries / (2^k - 2), {args.trials} trials per cell"
    )
    print("| k | 2^k - 2 | monotone | unstructured |")
    print("|---|---|---|---|")
    for k in range(3, 11):
        mono = mean_query_fraction("monotone", k, args.trials, rng)
        rand = mean_query_fraction("random", k, args.trials, rng)
        print(f"| {k} | {(1 << k) - 2} | {mono:.3f} | {rand:.3f} |")


if __name__ == "__main__":
    main()
