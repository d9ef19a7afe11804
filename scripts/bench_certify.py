"""Structure-aware certification: queries of ``assume=monotone`` against the lower bound.

For k = 3..12, on seeded random monotone tables, every certifier runs on the same cubes:

* **bound**: |interior minimal sufficient sets| + |interior maximal insufficient sets|, which
  any certifier must query (``reasonbench.core.monotone_lower_bound``);
* **monotone**: ``certify_monotone`` (greedy settle-the-most cut + walk to the border);
* **baseline**: the assumption-free ``certify_adaptive`` (skips supersets of sufficient sets),
  in the same run.

Two families of tables:

* ``threshold``: weighted-threshold adjudicators, the verdict flips once enough weight is
  replaced — the monotone tables of ``scripts/bench_core.py`` (where the baseline spends
  55–60 % of 2^k − 2);
* ``antichain``: the up-set of 1..3k random generator sets of size ≈ k/2 ± 1 (random DNF-like
  adjudicators: "any of these source combinations suffices").

A third table takes *every* monotone table at k = 3 and 4 (equally weighted) and adds the
**optimal** certifier: the decision tree over queries with the least average cost, by exhaustive
search — how far the greedy certifier is from the best possible, not only from the bound.

Reported per k: mean bound, mean queries, ratio (total queries / total bound, and the mean of
per-case ratios), and both certifiers' mean share of the 2^k − 2 interior cells. Every monotone
receipt is checked against the baseline's (the bench fails rather than print a wrong figure).
Goal: monotone total queries ≤ 2× the total bound on the threshold tables at every k.

Usage: python scripts/bench_certify.py [--trials N] [--kmin 3] [--kmax 12] [--seed S]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from reasonbench.core import Cube, certify_adaptive, certify_monotone, monotone_lower_bound

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import monotone_cube as threshold_cube  # noqa: E402  (the same tables)


def antichain_cube(k: int, rng: random.Random) -> Cube:
    generators = []
    for _ in range(rng.randint(1, 3 * k)):
        size = max(1, min(k, round(rng.gauss(k / 2, 1))))
        generators.append(sum(1 << i for i in rng.sample(range(k), size)))
    verdicts = ["approve" if any(m & g == g for g in generators) else "deny" for m in range(1 << k)]
    verdicts[0], verdicts[-1] = "deny", "approve"
    return Cube(tuple(f"S{i}" for i in range(k)), tuple(verdicts))


FAMILIES: dict[str, Callable[[int, random.Random], Cube]] = {
    "threshold": threshold_cube,
    "antichain": antichain_cube,
}


def all_monotone_cubes(k: int) -> list[Cube]:
    """Every table whose sufficient cells form an up-set with V(∅) != V(all), k sources."""
    top = (1 << k) - 1
    tables: list[list[bool]] = [[False]]
    for mask in range(1, top + 1):  # every subset of a mask is numerically smaller
        grown = []
        for table in tables:
            forced = mask == top or any(table[mask ^ (1 << i)] for i in range(k) if mask >> i & 1)
            grown += [[*table, True]] if forced else [[*table, False], [*table, True]]
        tables = grown
    sources = tuple(f"S{i}" for i in range(k))
    return [Cube(sources, tuple("approve" if v else "deny" for v in t)) for t in tables]


def optimal_total(cubes: list[Cube]) -> int:
    """Least total interior queries of a decision tree that certifies every cube in ``cubes``."""
    k = cubes[0].k

    @functools.cache
    def best(group: frozenset[int]) -> int:
        open_cells = [m for m in range(1, (1 << k) - 1) if len({cubes[i][m] for i in group}) > 1]
        if not open_cells:
            return 0  # every table left agrees on every cell: nothing to ask
        costs = []
        for cell in open_cells:
            yes = frozenset(i for i in group if cubes[i][cell] == "approve")
            costs.append(len(group) + best(yes) + best(group - yes))
        return min(costs)

    return best(frozenset(range(len(cubes))))


def print_optimal() -> None:
    print("every monotone table, equally weighted: optimal certifier (exhaustive search)")
    print(
        "| k | tables | bound | optimal | monotone | baseline | optimal / bound | monotone / bound |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for k in (3, 4):
        cubes = all_monotone_cubes(k)
        bound = sum(monotone_lower_bound(c) for c in cubes)
        mono = sum(certify_monotone(c.oracle(), c.sources).queries for c in cubes)
        base = sum(certify_adaptive(c.oracle(), c.sources).queries for c in cubes)
        best = optimal_total(cubes)
        n = len(cubes)
        print(
            f"| {k} | {n} | {bound / n:.2f} | {best / n:.2f} | {mono / n:.2f} | {base / n:.2f} "
            f"| {best / bound:.2f} | {mono / bound:.2f} |"
        )
    print()


def measure(family: str, k: int, trials: int, seed: int) -> dict[str, float]:
    rng = random.Random(f"{family}-{k}-{seed}")
    bounds, mono, base, ratios = [], [], [], []
    seconds = 0.0
    for _ in range(trials):
        cube = FAMILIES[family](k, rng)
        start = time.perf_counter()
        certificate = certify_monotone(cube.oracle(), cube.sources)
        seconds += time.perf_counter() - start
        baseline = certify_adaptive(cube.oracle(), cube.sources)
        if certificate.receipt != baseline.receipt or certificate.violation is not None:
            raise AssertionError(f"{family} k={k}: monotone receipt differs from the baseline's")
        bound = monotone_lower_bound(cube)
        bounds.append(bound)
        mono.append(certificate.queries)
        base.append(baseline.queries)
        ratios.append(certificate.queries / bound)
    cells = (1 << k) - 2
    return {
        "bound": statistics.mean(bounds),
        "monotone": statistics.mean(mono),
        "ratio": sum(mono) / sum(bounds),
        "mean_ratio": statistics.mean(ratios),
        "worst_ratio": max(ratios),
        "baseline": statistics.mean(base),
        "baseline_share": statistics.mean(b / cells for b in base),
        "monotone_share": statistics.mean(m / cells for m in mono),
        "ms_per_case": 1000 * seconds / trials,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=40, help="tables per family and k")
    parser.add_argument("--kmin", type=int, default=3)
    parser.add_argument("--kmax", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    met = True
    for family in FAMILIES:
        print(f"{family} tables, {args.trials} per k, seed {args.seed}")
        print(
            "| k | 2^k - 2 | bound | monotone queries | ratio | mean / worst case ratio "
            "| baseline queries | baseline share | monotone share | monotone ms/case |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for k in range(args.kmin, args.kmax + 1):
            r = measure(family, k, args.trials, args.seed)
            if family == "threshold":
                met &= r["ratio"] <= 2.0
            print(
                f"| {k} | {(1 << k) - 2} | {r['bound']:.1f} | {r['monotone']:.1f} "
                f"| {r['ratio']:.2f} | {r['mean_ratio']:.2f} / {r['worst_ratio']:.2f} "
                f"| {r['baseline']:.1f} | {r['baseline_share']:.1%} | {r['monotone_share']:.1%} "
                f"| {r['ms_per_case']:.1f} |",
                flush=True,
            )
        print()
    print_optimal()
    print(f"goal monotone <= 2x bound on threshold tables at every k: {'OK' if met else 'NOT MET'}")


if __name__ == "__main__":
    main()
