"""``benchmark=extended`` generate + audit: wall seconds, with and without the solver caches.

Goal: <= 60 s on the project's 2-core machine. The baseline, measured in the same run, is the
same build with the agentic solver caches off — no layout cache per (grounds, norms), no
equilibrium cache per (grounds, norms, profile), no search cache per reduced problem: only the
per-state decision cache the adjudicator always had. Both builds must write byte-identical
benchmarks (a cache returns exactly what it saves recomputing), and ``extended`` must match its
frozen manifest (data/manifests/extended.json); the script checks the manifest hashes and exits
non-zero otherwise.

Usage: python scripts/bench_extended.py [--workers 2] [--baseline] [--benchmark extended]
"""

from __future__ import annotations

import argparse
import functools
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench_generate import timed_build  # scripts/ is on the path of a script run from it

import reasonbench.strata.agentic.adjudicator as adjudicator
from reasonbench.are import enumeration
from reasonbench.io import manifest_hash


@contextmanager
def solver_caches_off() -> Iterator[None]:
    """The baseline: the caches this project added for the agentic build, switched off."""
    saved: dict[str, Any] = {name: getattr(adjudicator, name) for name in ("arranged", "settled")}
    size = enumeration.CACHE_SIZE
    for name, cached in saved.items():
        setattr(adjudicator, name, _uncached(cached.__wrapped__))
    enumeration.CACHE_SIZE = 0
    adjudicator.decide.cache_clear()
    try:
        yield
    finally:
        for name, cached in saved.items():
            setattr(adjudicator, name, cached)
        enumeration.CACHE_SIZE = size
        adjudicator.decide.cache_clear()


def _uncached(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(*args: Any) -> Any:
        return fn(*args)

    return call


ROOT = Path(__file__).resolve().parents[1]
FROZEN = {"extended": ROOT / "data/manifests/extended.json"}


def run(benchmark: str, workers: int, out: Path) -> tuple[float, float, str, int]:
    generated, total, manifest = timed_build(benchmark, workers, out)
    return generated, total, manifest_hash(manifest), manifest["stats"]["main_cases"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--benchmark", default="extended")
    parser.add_argument(
        "--baseline", action="store_true", help="also time the build without the solver caches"
    )
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="rb-bench-extended-"))
    rows = []
    if args.baseline:
        with solver_caches_off():
            rows.append(
                ("baseline: solver caches off", *run(args.benchmark, args.workers, root / "base"))
            )
    rows.append(
        ("solver caches on (reasonbench)", *run(args.benchmark, args.workers, root / "new"))
    )
    print(f"benchmark={args.benchmark}, workers={args.workers}")
    print("| build | generate s | generate + audit s | main cases |")
    print("|---|---|---|---|")
    for name, generated, total, _, cases in rows:
        print(f"| {name} | {generated:.1f} | {total:.1f} | {cases:,} |")
    if args.baseline:
        print(f"speed-up: {rows[0][2] / rows[-1][2]:.2f}x")
        same = rows[0][3] == rows[-1][3]
        print(f"byte-identical benchmarks (manifest sha256): {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(1)
    frozen = FROZEN.get(args.benchmark)
    if frozen is not None:  # a faster build must still write the frozen bytes
        same = manifest_hash(json.loads(frozen.read_text())) == rows[-1][3]
        print(f"matches {frozen.relative_to(ROOT)}: {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(1)
    print(f"goal <= 60 s: {'OK' if rows[-1][2] <= 60 else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
