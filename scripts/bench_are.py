"""Speed of the exact ARE solver: global equilibrium + decision margin Gamma_A.

For random typed dialectical graphs of 16, 24 and 32 claims (3 relations per claim, as in the
paper's solver benchmark; a few non-negotiables, prohibitions and consequential actions), the
median wall time of one exact solve with Gamma_A (``solve(state, check_unique=False)``) for
each backend where it applies: vectorised enumeration (after the exact reduction and closed-form
elimination) and the MILP (SciPy/HiGHS), with the MILP/enumeration ratio. Both backends are
checked to agree on every instance. Goal: <= 50 ms at 32 claims.

A last line times the full adjudication of case-family states (oversight observables included).

Usage: python scripts/bench_are.py [--instances N] [--sizes 16 24 32] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reasonbench.are import random_state, solve
from reasonbench.are.compilation import TOL, energy_form
from reasonbench.are.enumeration import eliminable, enumerable
from reasonbench.are.reduction import reduce_problem
from reasonbench.strata.agentic import AgenticStratum, decide


def timed(fn: object, *args: object, **kwargs: object) -> tuple[float, object]:
    assert callable(fn)
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def bench_size(n: int, instances: int, seed: int) -> dict[str, object]:
    times: dict[str, list[float]] = {"enumeration": [], "milp": []}
    free, searched = [], []
    for i in range(instances):
        state = random_state(random.Random(f"{seed}:{n}:{i}"), n, density=3.0)
        problem = reduce_problem(state, energy_form(state))
        free.append(problem.n)
        searched.append(problem.n - len(eliminable(problem)))
        results = {}
        for method in ("enumeration", "milp"):
            if method == "enumeration" and not enumerable(problem):
                continue
            solve(state, method=method, check_unique=False)  # warm caches (sign tables, imports)
            elapsed, results[method] = timed(solve, state, method=method, check_unique=False)
            times[method].append(elapsed)
        if len(results) == 2:
            a, b = results["enumeration"], results["milp"]
            assert abs(a.energy - b.energy) < 1e-6 and (
                a.gamma == b.gamma or abs(a.gamma - b.gamma) < 1e-6
            )  # type: ignore[attr-defined]
            assert a.gamma < TOL or a.decision == b.decision  # type: ignore[attr-defined]
    out: dict[str, object] = {
        "claims": n,
        "free_median": statistics.median(free),
        "enumerated_median": statistics.median(searched),
    }
    for method, values in times.items():
        out[method] = statistics.median(values) * 1000 if len(values) == instances else None
    return out


def bench_cases(draws: int) -> float:
    stratum = AgenticStratum()
    units = stratum.units(0)
    elapsed = []
    for i in range(draws):
        unit = units[i % len(units)]
        t = stratum.sample_transition(unit, random.Random(f"bench:{i}"), ("G", "N", "A"))
        if t is None:
            continue
        decide.cache_clear()
        seconds, _ = timed(stratum.adjudicator(t.context).adjudicate, t.new)
        elapsed.append(seconds)
    return statistics.median(elapsed) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 24, 32])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("claims  free  enumerated  enumeration_ms  milp_ms  milp/enumeration")
    for n in args.sizes:
        row = bench_size(n, args.instances, args.seed)
        enum, milp = row["enumeration"], row["milp"]
        ratio = (
            f"{milp / enum:.1f}x" if isinstance(enum, float) and isinstance(milp, float) else "n/a"
        )
        enum_text = f"{enum:.1f}" if isinstance(enum, float) else "n/a"
        milp_text = f"{milp:.1f}" if isinstance(milp, float) else "n/a"
        print(
            f"{n:>6}  {row['free_median']:>4}  {row['enumerated_median']:>10}  "
            f"{enum_text:>14}  {milp_text:>7}  {ratio:>16}"
        )
    print(
        f"case-family adjudication (solve + Gamma_A + oversight), median: {bench_cases(60):.1f} ms"
    )


if __name__ == "__main__":
    main()
