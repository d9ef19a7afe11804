"""Speed and outcome mix of the organizational stratum's case sampler.

For every clause of ``OrganizationalStratum().units(0)``:

* ``--draws`` plain draws: source subset uniform over the 7 non-empty subsets of (G, N, A), all
  operators, no aim;
* ``--aimed`` draws with ``aim="ambiguous"`` over the 2- and 3-source subsets (what assembly
  asks once a pool lacks only receipt-ambiguous cases), and the same requests without the aim.

Draw ``i`` (counted over all clauses: 0 .. 45 * draws - 1 for the plain draws, then on for the
2-/3-source ones) uses ``random.Random(f"bench:{i}")``, which also picks its subset. Reported:
mean CPU milliseconds per ``sample_transition`` (``time.process_time``, best of ``--repeat``
passes: robust to other load on the machine), the outcome mix (stable / changed / ambiguous
and minimum receipt sizes 1/2/3 of the changed, ``None`` returns), the ambiguous share of the
2-/3-source requests with and without the aim, and the per-case cost of ``render`` +
``trace`` + ``state_to_json`` (old and new) and of ``add_distractor``.

Usage: python scripts/bench_org_sampler.py [--draws N] [--aimed N] [--repeat R]

Recorded 2026-11-30 on the 2-core development container (Python 3.11, defaults; CPU time of
the best pass, before/after run back to back: the machine was shared, so single passes vary
by about 30%):

============================================  ===================  ===================
                                              before (b81dc01)     after
============================================  ===================  ===================
plain draw                                    0.96 ms              0.27 ms (3.6x)
2-/3-source draw, no aim                      1.46 ms              0.42 ms (3.5x)
2-/3-source draw, aim="ambiguous"             1.38 ms (ignored)    0.65 ms
ambiguous share of those, no aim / aim        7.4% / 7.4%          10.7% / 69.8%
plain mix: stable / changed, None returns     39.8% / 60.2%, 1     44.6% / 55.4%, 0
of changed: ambiguous; min size 1 / 2 / 3     7.3%; 91.3/6.7/1.9%  13.0%; 90.2/7.9/1.9%
render + 2x trace + 2x state_to_json, case    0.20 ms              0.20 ms
add_distractor, case                          0.09-0.14 ms         0.09-0.14 ms
============================================  ===================  ===================

"before" is commit b81dc01, where the aim was accepted and ignored. Mixes are deterministic;
times are not. See docs/strata/organizational.md, "Measurements", for what changed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from itertools import combinations

from reasonbench.core import execute_cube, receipt_of
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum

SUBSETS = [c for r in (1, 2, 3) for c in combinations(("G", "N", "A"), r)]
MULTI = [s for s in SUBSETS if len(s) > 1]

Draws = list[tuple[tuple[str, ...], Transition | None]]


def draw(
    stratum: OrganizationalStratum,
    count: int,
    subsets: list[tuple[str, ...]],
    aim: str | None,
    first: int = 0,
) -> tuple[float, Draws]:
    """``count`` draws per clause, seeds from ``first`` on; (CPU seconds in the sampler, draws)."""
    spent, out = 0.0, []
    for c, clause in enumerate(stratum.units(0)):
        for k in range(count):
            rng = random.Random(f"bench:{first + c * count + k}")
            sources = subsets[rng.randrange(len(subsets))]
            start = time.process_time()
            transition = stratum.sample_transition(clause, rng, sources, None, aim=aim)
            spent += time.process_time() - start
            out.append((sources, transition))
    return spent, out


def mix(stratum: OrganizationalStratum, draws: Draws) -> Counter[str]:
    """Outcome counts of executed draws (``none``: the sampler returned ``None``)."""
    judge = stratum.adjudicator({})
    counts: Counter[str] = Counter()
    for _, transition in draws:
        if transition is None:
            counts["none"] += 1
            continue
        receipt = receipt_of(execute_cube(judge, transition.old, transition.new))
        if receipt.stable:
            counts["stable"] += 1
            continue
        counts["changed"] += 1
        counts[f"min{receipt.min_size}"] += 1
        counts["ambiguous"] += receipt.ambiguous
    return counts


def show(counts: Counter[str]) -> str:
    total = max(sum(counts[k] for k in ("stable", "changed", "none")), 1)
    changed = max(counts["changed"], 1)
    return (
        f"n={total} stable={counts['stable'] / total:.1%} changed={counts['changed'] / total:.1%}"
        f" none={counts['none']}; of changed: ambiguous={counts['ambiguous'] / changed:.1%}"
        f" min1={counts['min1'] / changed:.1%} min2={counts['min2'] / changed:.1%}"
        f" min3={counts['min3'] / changed:.1%}"
    )


def render_cost(stratum: OrganizationalStratum, cases: list[Transition]) -> tuple[float, float]:
    """Mean CPU ms per case: render + trace and state_to_json of old and new; add_distractor."""
    families = stratum.template_families
    start = time.process_time()
    for i, t in enumerate(cases):
        stratum.render(t, families[i % len(families)], ("G", "N", "A"))
        stratum.trace(t.old, t.context)
        stratum.trace(t.new, t.context)
        stratum.state_to_json(t.old)
        stratum.state_to_json(t.new)
    rendering = (time.process_time() - start) / len(cases)
    rng = random.Random("bench:distractor")
    start = time.process_time()
    for t in cases:
        stratum.add_distractor(t, rng)
    distracting = (time.process_time() - start) / len(cases)
    return rendering * 1e3, distracting * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=40, help="plain draws per clause")
    parser.add_argument("--aimed", type=int, default=20, help="2-/3-source draws per clause")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes (best is shown)")
    args = parser.parse_args()

    stratum = OrganizationalStratum()
    n = len(stratum.units(0))
    first = n * args.draws  # seeds of the 2-/3-source draws follow those of the plain ones
    plain = aimed = unaimed = float("inf")
    for _ in range(max(args.repeat, 1)):
        spent, plain_draws = draw(stratum, args.draws, SUBSETS, None)
        plain = min(plain, spent / (n * args.draws))
        spent, aimed_draws = draw(stratum, args.aimed, MULTI, "ambiguous", first)
        aimed = min(aimed, spent / (n * args.aimed))
        spent, unaimed_draws = draw(stratum, args.aimed, MULTI, None, first)
        unaimed = min(unaimed, spent / (n * args.aimed))
    plain_mix = mix(stratum, plain_draws)
    aimed_mix, unaimed_mix = mix(stratum, aimed_draws), mix(stratum, unaimed_draws)
    share = {
        "without": unaimed_mix["ambiguous"] / len(unaimed_draws),
        "with": aimed_mix["ambiguous"] / len(aimed_draws),
    }
    cases = [t for _, t in plain_draws if t is not None]
    rendering, distracting = render_cost(stratum, cases)

    print(f"clauses={n} plain draws/clause={args.draws} 2-/3-source draws/clause={args.aimed}")
    print(f"sample_transition, plain:                {plain * 1e3:.3f} ms/draw")
    print(f"sample_transition, 2-/3-source, no aim:  {unaimed * 1e3:.3f} ms/draw")
    print(f"sample_transition, aim='ambiguous':      {aimed * 1e3:.3f} ms/draw")
    print(f"mix, plain:                  {show(plain_mix)}")
    print(f"mix, 2-/3-source, no aim:    {show(unaimed_mix)}")
    print(f"mix, 2-/3-source, ambiguous: {show(aimed_mix)}")
    print(
        f"ambiguous share of the 2-/3-source requests: without aim {share['without']:.1%},"
        f" with aim {share['with']:.1%}; ms per ambiguous case:"
        f" {unaimed * 1e3 / max(share['without'], 1e-9):.2f} without,"
        f" {aimed * 1e3 / max(share['with'], 1e-9):.2f} with"
    )
    print(f"render + 2x trace + 2x state_to_json:    {rendering:.3f} ms/case")
    print(f"add_distractor:                          {distracting:.3f} ms/case")


if __name__ == "__main__":
    main()
