"""Speed of the logical stratum's case sampler (``LogicalStratum.sample_transition``).

Workload: the first 100 worlds of ``LogicalStratum().units(20260830)``, 20 draws each with
``rng = random.Random(f"bench:{i}")`` (one RNG per world, shared by its 20 draws), sources uniform
over the 7 non-empty subsets of (G, N, A), ``operators=None``; every other draw on a multi-source
subset passes ``aim="ambiguous"`` (as assembly's focused draws do). Only ``sample_transition`` is
timed per draw; ``execute_cube`` + ``proof_depth`` on its result are timed separately. The outcome
mix (stable/changed/ambiguous, min receipt size, proof depth) shows the distribution did not
collapse.

Baseline (unmodified sampler, commit 81b78e6, measured 2026-08-30 on this machine, CPython 3.12):
    BASELINE_MS below; mix in BASELINE_MIX.

Usage: python scripts/bench_logical_sampler.py [--worlds 100] [--draws 20] [--seed 20260830]
"""

from __future__ import annotations

import argparse
import collections
import random
import time
from itertools import combinations

from reasonbench.core import execute_cube, receipt_of
from reasonbench.strata.logical import LogicalStratum
from reasonbench.strata.logical.chaining import closure
from reasonbench.strata.logical.unit import World

SUBSETS: tuple[tuple[str, ...], ...] = tuple(
    c for r in (1, 2, 3) for c in combinations(("G", "N", "A"), r)
)
BASELINE_DATE = "2026-08-30"
BASELINE_MS = 0.0  # filled in after measuring the unmodified code
BASELINE_MIX = ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20260830)
    args = parser.parse_args()

    stratum = LogicalStratum()
    start = time.perf_counter()
    every_world = stratum.units(args.seed)
    units_s = time.perf_counter() - start
    print(f"units (all {len(every_world)} worlds): {units_s:.2f} s (goal < 2 s on one core)")
    worlds = every_world[: args.worlds]
    sample_s = check_s = 0.0
    calls = 0
    mix: collections.Counter[str] = collections.Counter()
    depths: collections.Counter[int] = collections.Counter()
    for i, world in enumerate(worlds):
        rng = random.Random(f"bench:{i}")
        for j in range(args.draws):
            sources = SUBSETS[rng.randrange(len(SUBSETS))]
            aim = "ambiguous" if len(sources) > 1 and j % 2 else None
            start = time.perf_counter()
            case = stratum.sample_transition(world, rng, sources, None, aim=aim)
            sample_s += time.perf_counter() - start
            calls += 1
            if case is None:
                mix["none"] += 1
                continue
            start = time.perf_counter()
            receipt = receipt_of(
                execute_cube(stratum.adjudicator(case.context), case.old, case.new)
            )
            depth = stratum.proof_depth(case)
            check_s += time.perf_counter() - start
            depths[depth] += 1
            if receipt.stable:
                mix["stable"] += 1
                mix["stable-noop"] += any(stratum.operators[n].noop for n in case.operators)
            else:
                mix["ambiguous" if receipt.ambiguous else "changed"] += 1
                mix[f"size{receipt.min_size}"] += 1
    cases = calls - mix["none"]
    mean_ms = 1000 * sample_s / calls
    print(f"draws: {calls}  cases: {cases}  none: {mix['none']}")
    print(f"sample_transition: {mean_ms:.3f} ms/draw (total {sample_s:.2f} s)")
    print(f"execute_cube + proof_depth: {1000 * check_s / max(cases, 1):.3f} ms/case")
    shown = ("stable", "stable-noop", "changed", "ambiguous", "size1", "size2", "size3")
    print("mix:", "  ".join(f"{k}={mix[k]}" for k in shown))
    print("depth:", "  ".join(f"{d}={n}" for d, n in sorted(depths.items())))
    cells_cold, cells_warm = adjudication_per_cell(stratum, worlds)
    print(
        f"adjudication: {1e6 * cells_warm:.1f} us/cell with the closure cache (goal < 200 us); "
        f"baseline closure cache cleared before every cube: {1e6 * cells_cold:.1f} us/cell "
        f"({cells_cold / cells_warm:.2f}x)"
    )
    if BASELINE_MS:
        print(f"baseline measured at {BASELINE_DATE}: {BASELINE_MS:.3f} ms/draw")
        print(f"baseline mix: {BASELINE_MIX}")
        print(f"speed-up: {BASELINE_MS / mean_ms:.2f}x")


def adjudication_per_cell(stratum: LogicalStratum, worlds: list[World]) -> tuple[float, float]:
    """Seconds per executed cell: cold (closure cache cleared before every cube, the baseline)
    and as assembly runs it (cache kept)."""
    rng = random.Random("speed")
    cases = [stratum.sample_transition(w, rng, ("G", "N", "A")) for w in worlds[:200]]
    chosen = [c for c in cases if c is not None]
    timings = []
    for clear_each in (True, False):
        closure.cache_clear()
        start = time.perf_counter()
        for case in chosen:
            if clear_each:
                closure.cache_clear()
            execute_cube(stratum.adjudicator(case.context), case.old, case.new)
        timings.append((time.perf_counter() - start) / (8 * len(chosen)))
    return timings[0], timings[1]


if __name__ == "__main__":
    main()
