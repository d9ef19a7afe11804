"""Faults of an ordinary machine end in one line, leave nothing half-written, and leave no
worker process behind."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
GENERATE = [sys.executable, "-m", "reasonbench.cli.main", "generate", "benchmark=small"]


def run(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REASONBENCH_PROGRESS": "lines"}
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, **kw)  # type: ignore[call-overload, no-any-return]


def single_error_line(stderr: str, command: str) -> str:
    errors = [line for line in stderr.splitlines() if f"reasonbench {command}: " in line]
    assert len(errors) == 1 and "Traceback" not in stderr, stderr
    return errors[0]


def test_file_size_limit_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    def limit() -> None:  # as `ulimit -f 64`: the benchmark's files do not fit
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    out = tmp_path / "rb"
    done = run([*GENERATE, f"out_dir={out}", "workers=1", "cardinality=false"], preexec_fn=limit)
    assert done.returncode != 0
    line = single_error_line(done.stderr, "generate")
    assert "File too large" in line or "file too large" in line
    assert list(tmp_path.iterdir()) == []  # no staging directory, no partial out_dir


def test_unwritable_location_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        parent = Path("/sys/reasonbench-test")  # sysfs refuses new directories, even to root
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        parent = locked / "sub"
    done = run([*GENERATE, f"out_dir={parent}/rb", "workers=1"])
    assert done.returncode == 2
    line = single_error_line(done.stderr, "generate")
    assert "not permitted" in line or "ermission denied" in line


def test_a_file_where_a_directory_should_be(tmp_path: Path) -> None:
    (tmp_path / "plain.txt").write_text("a file")
    done = run([*GENERATE, f"out_dir={tmp_path}/plain.txt/rb", "workers=1"])
    assert done.returncode == 2
    assert "plain.txt is a file, not a directory" in single_error_line(done.stderr, "generate")
    assert (tmp_path / "plain.txt").read_text() == "a file"


def test_killed_generate_leaves_no_workers(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*GENERATE, f"out_dir={tmp_path}/rb", "workers=2", "progress=false"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    children: list[psutil.Process] = []
    while time.monotonic() < deadline and len(children) < 2:
        time.sleep(0.2)
        children = parent.children(recursive=True)
    assert len(children) >= 2, "generate never started its workers"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive, f"orphaned workers: {[p.pid for p in alive]}"


def test_progress_off_a_terminal_is_plain_lines(tmp_path: Path) -> None:
    done = run([*GENERATE, f"out_dir={tmp_path}/rb", "workers=1", "cardinality=false"])
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    progress = [line for line in done.stderr.splitlines() if "units/s" in line]
    assert progress and any("ETA" in line for line in progress) or len(progress) >= 2
    assert done.stdout.strip().splitlines()[-1].startswith("wrote ")  # the summary stands alone
