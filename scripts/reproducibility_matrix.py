"""The other machines, emulated: the main job's steps after the benchmark, once per configuration
this machine can emulate, each ending in ``reasonbench compare`` against the reference
(docs/reproducibility.md, "The other machines, emulated").

Each row runs in its own directory, with its own generation cache, in a fresh environment that
differs from this one only by the row's variables: decode the locked test with the committed CPU
models (``predict``), the baselines, ``analyze``, ``tables``, then ``compare`` with the committed
``results/`` (HEAD's copy, as the main job does; the audit and the Judge Cards, which no row
rewrites, left out). It prints one row per configuration with compare's exit status and summary,
as a Markdown table; every row must end in exit 0.

    python scripts/reproducibility_matrix.py                      # every row, the whole locked test
    python scripts/reproducibility_matrix.py --rows aten-default,mkl-compatible
    python scripts/reproducibility_matrix.py --examples 64        # predictions only, on a slice,
                                                                  # against the first row's

Rows a CPU cannot emulate are printed with the reason (ATen's AVX-512 build on a CPU without it;
MKL's AVX2 branch on an AMD CPU, which refuses it: that is how an AMD machine looks to MKL).
``run_matrix`` is the API: ``tests/reports/test_matrix.py`` runs the kernel and branch rows with the
tiny model on a slice of the small build.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).with_name("reasonbench")
SPLIT = "test_locked"
# what the rows set or unset; everything else of this environment is passed on unchanged
ROW_VARIABLES = ("ATEN_CPU_CAPABILITY", "MKL_CBWR", "OMP_NUM_THREADS", "LC_ALL", "LANG", "TZ",
                 "PYTHONHASHSEED", "MKL_ENABLE_INSTRUCTIONS")  # fmt: skip


@dataclass(frozen=True)
class Row:
    name: str
    what: str  # the machine it stands for
    env: dict[str, str] = field(default_factory=dict)
    space: bool = False  # run from a checkout whose path has a space in it
    kernels: bool = False  # a kernel or branch row (the fast subset)
    unavailable: Callable[[], str | None] = lambda: None  # why this CPU cannot emulate it


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    line = next((x for x in text.splitlines() if x.startswith("flags")), "")
    return set(line.split(":", 1)[-1].split())


def _no_avx512() -> str | None:
    return None if "avx512f" in _cpu_flags() else "this CPU has no AVX-512"


def _mkl_refuses_avx2() -> str | None:
    """Ask MKL, in a fresh process, for its AVX2 branch (10): -3 is an AMD CPU's answer."""
    code = (
        "import ctypes, pathlib, torch\n"
        "lib = ctypes.CDLL(str(pathlib.Path(torch.__file__).parent / 'lib' / 'libtorch_cpu.so'))\n"
        "print(lib.mkl_serv_cbwr_set(10))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    answer = done.stdout.strip()
    if answer == "0":
        return None
    vendor = "an AMD CPU" if "AuthenticAMD" in _vendor() else "this CPU"
    return f"MKL refuses its AVX2 branch on {vendor} (mkl_serv_cbwr_set returned {answer or '?'})"


def _vendor() -> str:
    try:
        return next(
            (x for x in Path("/proc/cpuinfo").read_text().splitlines() if "vendor_id" in x), ""
        )
    except OSError:
        return ""


def _utf8_locale() -> str:
    listed = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    for name in ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"):
        if name in listed:
            return name
    return "C.UTF-8"


ROWS: tuple[Row, ...] = (
    Row("reference", "this machine, as it is", {}),
    Row("aten-default", "a CPU without AVX2 (ATen's plain build)",
        {"ATEN_CPU_CAPABILITY": "default"}, kernels=True),
    Row("aten-avx2", "a CPU whose best is AVX2", {"ATEN_CPU_CAPABILITY": "avx2"}, kernels=True),
    Row("aten-avx512", "an AVX-512 CPU", {"ATEN_CPU_CAPABILITY": "avx512"}, kernels=True,
        unavailable=_no_avx512),
    Row("mkl-compatible", "MKL on an AMD CPU (its compatible branch)",
        {"MKL_CBWR": "COMPATIBLE"}, kernels=True),
    Row("mkl-avx2", "MKL on an Intel CPU with AVX2 (its AVX2 branch)", {"MKL_CBWR": "AVX2"},
        kernels=True, unavailable=_mkl_refuses_avx2),
    Row("mkl-auto", "MKL's own choice for this CPU", {"MKL_CBWR": "AUTO"}, kernels=True),
    Row("mkl-sse4_2", "an older CPU, as MKL sees it", {"MKL_ENABLE_INSTRUCTIONS": "SSE4_2"},
        kernels=True),
    Row("omp-1", "OMP_NUM_THREADS=1", {"OMP_NUM_THREADS": "1"}),
    Row("omp-2", "OMP_NUM_THREADS=2", {"OMP_NUM_THREADS": "2"}),
    Row("omp-4", "OMP_NUM_THREADS=4 (more threads than cores here)", {"OMP_NUM_THREADS": "4"}),
    Row("locale-c", "the C locale (ASCII)", {"LC_ALL": "C", "LANG": "C"}),
    Row("locale-utf8", "a UTF-8 locale", {"LC_ALL": "<utf8>", "LANG": "<utf8>"}),
    Row("tz", "another time zone (UTC+14)", {"TZ": "Pacific/Kiritimati"}),
    Row("space", "a checkout path with a space in it", {}, space=True),
    Row("hashseed", "PYTHONHASHSEED=random", {"PYTHONHASHSEED": "random"}),
)  # fmt: skip


@dataclass(frozen=True)
class Run:
    """One trained run the rows decode: its method, the ``predict`` overrides that name its
    model and target, and its run directory (relative to ``models``)."""

    method: str
    overrides: tuple[str, ...]
    run_dir: str


def paper_runs() -> list[Run]:
    return [
        Run(f"small_cpu-{t}", ("model=small_cpu", f"target={t}"), f"small_cpu-{t}/seed0")
        for t in ("cube", "direct_receipt")
    ]


@dataclass
class Result:
    row: Row
    code: int | None  # compare's exit status; None when the row could not be emulated
    summary: str
    seconds: float = 0.0


def environment(row: Row) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ROW_VARIABLES}
    for key, value in row.env.items():
        env[key] = _utf8_locale() if value == "<utf8>" else value
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _run(argv: Sequence[str], env: dict[str, str], cwd: Path, log: Path) -> None:
    _together([argv], env, cwd, log)


def _together(commands: Sequence[Sequence[str]], env: dict[str, str], cwd: Path, log: Path) -> None:
    """Run ``commands`` side by side (the main job decodes its two models so), each logging to
    its own file beside ``log``; an error names the command and its log."""
    procs = []
    for i, argv in enumerate(commands):
        out = log.with_name(f"{log.stem}-{argv[1]}-{i}.txt") if len(commands) > 1 else log
        handle = out.open("a", encoding="utf-8")
        handle.write(f"$ {' '.join(argv)}\n")
        handle.flush()
        procs.append((argv, out, handle, subprocess.Popen(
            list(argv), env=env, cwd=cwd, stdout=handle, stderr=subprocess.STDOUT)))  # fmt: skip
    failed = []
    for argv, out, handle, proc in procs:
        if proc.wait():
            failed.append(f"{argv[1]} exited {proc.returncode} (see {out})")
        handle.close()
    if failed:
        raise RuntimeError("; ".join(failed))


def sliced(data_dir: Path, examples: int, into: Path) -> Path:
    """The benchmark with its locked test cut to its first ``examples`` rows (every other file a
    link): a fast matrix decodes that slice."""
    import pyarrow.parquet as pq

    into.mkdir(parents=True, exist_ok=True)
    for path in data_dir.iterdir():
        if path.name != f"{SPLIT}.parquet":
            (into / path.name).symlink_to(path.resolve())
    table = pq.read_table(data_dir / f"{SPLIT}.parquet")
    pq.write_table(table.slice(0, examples), into / f"{SPLIT}.parquet")
    return into


def committed_reference(into: Path) -> Path:
    """HEAD's ``results/`` (the main job's reference), without what no row rewrites."""
    archive = subprocess.run(
        ["git", "archive", "HEAD", "results"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(into, filter="data")
    for name in ("audit", "judge_cards"):
        shutil.rmtree(into / "results" / name, ignore_errors=True)
    return into / "results"


def _layout(here: Path, data_dir: Path, models: Path, copy: bool) -> None:
    """A checkout as the commands see it from ``here``: ``data/reasonbench`` and ``models``
    (links, or copies under a path with a space), and ``data/cache`` empty. Every path a command
    records is then the main job's own relative one (``data/reasonbench``, ``results/…``,
    ``models/…``), so the outputs compare byte for byte with the committed ones."""
    (here / "data").mkdir(parents=True, exist_ok=True)
    for source, link in ((data_dir, here / "data" / "reasonbench"), (models, here / "models")):
        if copy:
            shutil.copytree(source, link)
        else:
            link.symlink_to(source.resolve())


def run_row(
    row: Row,
    work: Path,
    data_dir: Path,
    models: Path,
    runs: Sequence[Run],
    reference: Path | None,
    full: bool,
    seeds_more: Path | None,
    curves: bool = False,
    base_cache: Path | None = None,
) -> Result:
    """The steps under ``row``, run from a directory of its own laid out as a checkout, with
    empty caches (the random-init base and the generations are built afresh; ``base_cache``
    shares the base's cache, whose key names the kernels that drew it); compare's verdict
    against ``reference`` (None: this row is the reference)."""
    reason = row.unavailable()
    if reason:
        return Result(row, None, f"not emulated: {reason}")
    started = time.monotonic()
    here = work / (f"{row.name} with space" if row.space else row.name)
    here.mkdir(parents=True, exist_ok=True)
    _layout(here, data_dir, models, copy=row.space)
    results, log, env = here / "results", here / "log.txt", environment(row)
    predictions = results / "predictions"
    caches = [f"model.cache_dir={base_cache}"] if base_cache else []
    decodes = []
    for run in runs:
        if seeds_more is not None and (seeds_more / run.method).is_dir():
            (predictions / run.method).mkdir(parents=True, exist_ok=True)
            for extra in (seeds_more / run.method).glob("seed*-more*"):
                shutil.copy2(extra, predictions / run.method / extra.name)
        decodes.append([str(BIN), "predict", *run.overrides, f"run_dir=models/{run.run_dir}",
                        f"splits=[{SPLIT}]", *caches, "progress=false"])  # fmt: skip
    _together(decodes, env, here, log)
    if full:
        _run([str(BIN), "baselines"], env, here, log)
        # as the main job runs it: metrics.json records its config, progress included (its
        # lines go to the row's log, plain: not a terminal)
        _run([str(BIN), "analyze"], env, here, log)
        drawn = ",".join(f"models/{run.run_dir}" for run in runs) if curves else ""
        _run([str(BIN), "tables", f"curves=[{drawn}]"], env, here, log)
    if reference is None:
        return Result(row, 0, "the reference", time.monotonic() - started)
    done = subprocess.run(
        [str(BIN), "compare", f"left={reference}", f"right={results}"],
        env=env, cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    lines = (done.stdout + done.stderr).strip().splitlines()
    (here / "compare.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Result(row, done.returncode, lines[-1] if lines else "", time.monotonic() - started)


def run_matrix(
    rows: Sequence[Row],
    work: Path,
    data_dir: Path,
    models: Path,
    runs: Sequence[Run],
    full: bool,
    reference: Path | None = None,
    seeds_more: Path | None = None,
    curves: bool = False,
    base_cache: Path | None = None,
    report: Callable[[Result], None] = lambda result: None,
) -> list[Result]:
    """Every row in turn. Without ``reference``, the first row's outputs are the reference."""
    out = []
    for row in rows:
        result = run_row(
            row, work, data_dir, models, runs, reference, full, seeds_more, curves, base_cache
        )
        if reference is None and result.code == 0:
            reference = work / (f"{row.name} with space" if row.space else row.name) / "results"
        out.append(result)
        report(result)
    return out


def table(results: Sequence[Result], left: str) -> str:
    lines = [
        f"| configuration | emulates | compare against {left} | exit | seconds |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        env = ", ".join(f"`{k}={v}`" for k, v in r.row.env.items()) or (
            "checkout under a path with a space" if r.row.space else "nothing changed"
        )
        code = "—" if r.code is None else str(r.code)
        summary = r.summary.replace("|", "\\|")
        lines.append(
            f"| {r.row.name} ({env}) | {r.row.what} | {summary} | {code} | {r.seconds:.0f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", default="data/reasonbench", type=Path)
    parser.add_argument("--models", default="models", type=Path)
    parser.add_argument("--rows", help="comma-separated row names (default: all)")
    parser.add_argument("--kernels-only", action="store_true", help="the kernel and branch rows")
    parser.add_argument(
        "--examples", type=int, default=0, help="a slice of the locked test (0: all of it)"
    )
    parser.add_argument("--work", type=Path, help="where the rows run (default: a temporary one)")
    args = parser.parse_args()
    rows = [r for r in ROWS if not args.kernels_only or r.kernels or r.name == "reference"]
    if args.rows:
        wanted = args.rows.split(",")
        unknown = sorted(set(wanted) - {r.name for r in ROWS})
        if unknown:
            print(f"unknown rows {unknown}; rows: {[r.name for r in ROWS]}", file=sys.stderr)
            return 2
        rows = [r for r in ROWS if r.name in wanted]
    work = args.work or Path(tempfile.mkdtemp(prefix="rb-matrix-"))
    full = args.examples == 0
    data_dir = args.data_dir.resolve()
    if not full:
        data_dir = sliced(data_dir, args.examples, work / "slice")
    reference = committed_reference(work / "committed") if full else None
    print(f"{platform.processor() or platform.machine()}, {_vendor() or 'vendor unknown'}; "
          f"rows in {work}", flush=True)  # fmt: skip
    results = run_matrix(
        rows, work, data_dir, args.models.resolve(), paper_runs(), full, reference,
        seeds_more=reference / "predictions" if reference else None, curves=True,
        report=lambda r: print(f"{r.row.name}: exit {r.code}, {r.seconds:.0f} s: {r.summary}",
                               flush=True),
    )  # fmt: skip
    print()
    print(table(results, "HEAD's results/" if full else "the first row"))
    bad = [r for r in results if r.code not in (0, None)]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
