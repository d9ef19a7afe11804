"""Paper-scale generate + audit: wall seconds, peak RSS and cases/s (goal: <= 60 s, <= 2 GiB).

Baseline measured in the same run: the same build with ``workers=1`` (``--baseline``), so the
parallel speed-up is printed as a ratio.

Usage: python scripts/bench_generate.py [--workers 2] [--baseline] [--out /tmp/rb-bench]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from reasonbench.assembly import generate, spec_from_config
from reasonbench.audit import audit
from reasonbench.cli.config import compose

CONF = Path(__file__).resolve().parents[1] / "conf"


def peak_rss_mib() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def timed_build(benchmark: str, workers: int, out: Path) -> tuple[float, float, dict[str, Any]]:
    """Generate + audit one build: (generate s, generate + audit s, its manifest); exits on a
    failed audit (a fast wrong build measures nothing). Shared with bench_extended.py."""
    cfg = compose("generate", overrides=[f"benchmark={benchmark}"])
    spec = spec_from_config(OmegaConf.to_container(cfg.benchmark, resolve=True))  # type: ignore[arg-type]
    start = time.perf_counter()
    manifest = generate(spec, out, workers=workers, progress=False)
    generated = time.perf_counter() - start
    result = audit(out, workers=workers, progress=False)
    total = time.perf_counter() - start
    if not result["passed"]:
        raise SystemExit(f"audit failed: {result['counts']}")
    return generated, total, manifest


def run(workers: int, out: Path) -> tuple[float, float, int]:
    generated, total, manifest = timed_build("paper", workers, out)
    stats = manifest["stats"]
    return generated, total, stats["main_cases"] + stats["controls"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--baseline", action="store_true", help="also time workers=1 in the same run"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="rb-bench-")) / "reasonbench"
    rows = []
    for workers in ([1] if args.baseline else []) + [args.workers]:
        generated, total, cases = run(workers, out)
        rows.append((workers, generated, total, cases))
    own, children = peak_rss_mib()
    print("| workers | generate s | generate + audit s | cases (main + controls) | cases/s |")
    print("|---|---|---|---|---|")
    for workers, generated, total, cases in rows:
        print(f"| {workers} | {generated:.1f} | {total:.1f} | {cases:,} | {cases / total:,.0f} |")
    if args.baseline:
        print(
            f"speed-up workers={args.workers} vs baseline workers=1: {rows[0][2] / rows[-1][2]:.2f}x"
        )
    print(f"peak RSS: main process {own:,.0f} MiB, largest worker {children:,.0f} MiB")
    verdict = "OK" if rows[-1][2] <= 60 and max(own, children) <= 2048 else "OVER BUDGET"
    print(f"goal <= 60 s and <= 2 GiB: {verdict}")


if __name__ == "__main__":
    main()
