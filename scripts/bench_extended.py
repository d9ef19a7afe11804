"""``benchmark=extended`` generate + audit: wall seconds, beside named baselines run in the same run.

Goal: <= 60 s on the project's 2-core machine. Two baselines, each the same build with one of
the project's speed levers switched off, can be measured in the same run (``--baseline``):

- ``collector``: the cyclic garbage collector left running through generate and audit
  (reasonbench pauses it for a batch job, :mod:`reasonbench.io.collector`);
- ``caches``: the agentic solver caches off — no layout cache per (grounds, norms), no
  equilibrium cache per (grounds, norms, profile), no search cache per reduced problem: only
  the per-state decision cache the adjudicator always had.

Every build must write byte-identical benchmarks (a lever only saves work, it never changes a
byte), and ``extended`` must match its frozen manifest (data/manifests/extended.json); the
script checks the manifest hashes and exits non-zero otherwise.

Usage: python scripts/bench_extended.py [--workers 2] [--baseline [collector] [caches]]
       [--benchmark extended]      (``--baseline`` alone measures both)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench_generate import timed_build  # scripts/ is on the path of a script run from it

import reasonbench.assembly.generation as generation
import reasonbench.audit.run as audit_run
import reasonbench.strata.agentic.adjudicator as adjudicator
from reasonbench.are import enumeration
from reasonbench.io import manifest_hash


@contextmanager
def collector_on() -> Iterator[None]:
    """The baseline ``collector``: generate and audit run with the cyclic collector as it is."""
    modules, name = (generation, audit_run), "paused_collector"  # each imported it by name
    saved = [getattr(module, name) for module in modules]
    for module in modules:
        setattr(module, name, contextlib.nullcontext)
    try:
        yield
    finally:
        for module, paused in zip(modules, saved, strict=True):
            setattr(module, name, paused)


@contextmanager
def solver_caches_off() -> Iterator[None]:
    """The baseline ``caches``: the caches this project added for the agentic build, off."""
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


BASELINES: dict[str, tuple[str, Callable[[], contextlib.AbstractContextManager[None]]]] = {
    "collector": ("baseline: cyclic collector on", collector_on),
    "caches": ("baseline: solver caches off", solver_caches_off),
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--benchmark", default="extended")
    parser.add_argument(
        "--baseline",
        nargs="*",
        choices=sorted(BASELINES),
        default=None,
        help="also time these baselines in the same run (no name: all of them)",
    )
    args = parser.parse_args()
    chosen = [] if args.baseline is None else (args.baseline or sorted(BASELINES))
    root = Path(tempfile.mkdtemp(prefix="rb-bench-extended-"))
    rows = []
    for name in chosen:
        label, switch = BASELINES[name]
        with switch():
            rows.append((label, *run(args.benchmark, args.workers, root / name)))
    rows.append(("reasonbench", *run(args.benchmark, args.workers, root / "reasonbench")))
    ours = rows[-1]
    print(f"benchmark={args.benchmark}, workers={args.workers}")
    print("| build | generate s | generate + audit s | main cases |")
    print("|---|---|---|---|")
    for name, generated, total, _, cases in rows:
        print(f"| {name} | {generated:.1f} | {total:.1f} | {cases:,} |")
    for name, _, total, digest, _ in rows[:-1]:
        same = digest == ours[3]
        print(f"{name}: speed-up {total / ours[2]:.2f}x, byte-identical: {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(1)
    frozen = FROZEN.get(args.benchmark)
    if frozen is not None:  # a faster build must still write the frozen bytes
        same = manifest_hash(json.loads(frozen.read_text())) == ours[3]
        print(f"matches {frozen.relative_to(ROOT)}: {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(1)
    print(f"goal <= 60 s: {'OK' if ours[2] <= 60 else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
