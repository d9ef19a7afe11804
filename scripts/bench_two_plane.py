"""Wall time per certified case of the two-plane audit, per stratum, beside exhaustive execution.

The two-plane results (``reasonbench analyze``, table ``two_plane``) hold no wall time: they are
deterministic. This script times the certification plane alone, on the cases one method's routing
certifies at a threshold (default: every predicted change, "certify all"):

* **adaptive** (what the audit runs): rebuild both states from the stored JSON, build the
  stratum's trusted adjudicator, certify with ``certify_adaptive`` (endpoints + interior queries);
* **baseline, exhaustive**: the same cases, the same state rebuilding, all 2^k hybrids executed
  (``certify_exhaustive``), in the same run.

Reading the Parquet split and importing the strata happen once, before timing; the last column
is the part of both figures spent rebuilding states and adjudicator (no execution), so the
execution cost itself is the difference. Each figure is the
best of ``--repeats`` passes (seconds per certified case). Both receipts are checked against the
stored gold; the bench fails rather than print a figure for a wrong receipt.

Usage: python scripts/bench_two_plane.py [--data-dir data/reasonbench]
       [--predictions results/predictions] [--method tfidf] [--tau T] [--repeats 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from reasonbench.analysis.gold import load_gold, split_ids
from reasonbench.analysis.trusted import DEFAULT_SPLITS, TrustedPlane
from reasonbench.analysis.two_plane import CERTIFY_ALL, Route
from reasonbench.core.certify import Certificate, certify_adaptive, certify_exhaustive
from reasonbench.core.cube import Oracle
from reasonbench.predictions import load_predictions


def certified_ids(args: argparse.Namespace) -> list[str]:
    """The cases the method's routing certifies (calibrated on its calibration records)."""
    from reasonbench.analysis.calibration import CALIBRATION, calibrated_changes

    gold = load_gold(args.data_dir, (*DEFAULT_SPLITS, CALIBRATION))
    records = [
        r
        for r in load_predictions(args.predictions, split_ids(load_gold(args.data_dir)))
        if r.method == args.method and r.split in (*DEFAULT_SPLITS, CALIBRATION)
    ]
    if not records:
        raise SystemExit(
            f"bench_two_plane: no records of method {args.method} in {args.predictions}"
        )
    route = Route(CERTIFY_ALL) if args.tau is None else Route(f"{args.tau:.2f}", args.tau)
    changes = calibrated_changes(records, gold, ("isotonic",))
    first_seed = min(c.seed for c in changes)
    return sorted(
        c.example_id
        for c in changes
        if c.seed == first_seed and route.certifies(c.calibrated["isotonic"])
    )


def timed(
    plane: TrustedPlane,
    ids: list[str],
    certify: Callable[[Oracle, tuple[str, ...]], Certificate],
    repeats: int,
) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for example_id in ids:
            oracle, sources = plane.oracle(example_id)
            receipt = certify(oracle, sources).receipt
            gold = plane.gold[example_id].receipt
            if (receipt.old, receipt.new, receipt.sets) != (gold.old, gold.new, gold.sets):
                raise SystemExit(f"bench_two_plane: {example_id}: receipt differs from gold")
        best = min(best, time.perf_counter() - start)
    return best / len(ids)


def rebuild_only(plane: TrustedPlane, ids: list[str], repeats: int) -> float:
    """Seconds per case of rebuilding the states and the adjudicator, executing nothing."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for example_id in ids:
            plane.oracle(example_id)
        best = min(best, time.perf_counter() - start)
    return best / len(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path("data/reasonbench"))
    parser.add_argument("--predictions", type=Path, default=Path("results/predictions"))
    parser.add_argument("--method", default="tfidf")
    parser.add_argument(
        "--tau", type=float, default=None, help="routing threshold (default: certify all)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ids = certified_ids(args)
    plane = TrustedPlane(args.data_dir, load_gold(args.data_dir, DEFAULT_SPLITS))
    by_stratum: dict[str, list[str]] = {}
    for example_id in ids:
        by_stratum.setdefault(plane.gold[example_id].stratum, []).append(example_id)
        plane.certify(example_id)  # warm-up: reads the split, imports the strata
    route = "certify all" if args.tau is None else f"tau = {args.tau:.2f}"
    print(
        f"method {args.method}, {route}: {len(ids)} certified cases on {', '.join(DEFAULT_SPLITS)}"
    )
    print(f"{'stratum':<16}{'cases':>7}{'executions/case':>17}{'adaptive ms/case':>18}"
          f"{'baseline exhaustive ms/case':>29}{'speed-up':>10}{'of which rebuild ms':>21}")  # fmt: skip
    for stratum, mine in sorted(by_stratum.items()):
        executions = sum(plane.certify(i).executions for i in mine) / len(mine)
        adaptive = timed(plane, mine, certify_adaptive, args.repeats)
        exhaustive = timed(plane, mine, certify_exhaustive, args.repeats)
        rebuild = rebuild_only(plane, mine, args.repeats)
        print(f"{stratum:<16}{len(mine):>7}{executions:>17.2f}{1e3 * adaptive:>18.3f}"
              f"{1e3 * exhaustive:>29.3f}{exhaustive / adaptive:>9.2f}x{1e3 * rebuild:>21.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
