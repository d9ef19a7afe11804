#!/usr/bin/env bash
# The test command: set up .venv, then lint (ruff), type-check (mypy) and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
VENV="${REASONBENCH_VENV:-.venv}"
echo "[test] ruff"
"$VENV/bin/ruff" check reasonbench tests scripts
"$VENV/bin/ruff" format --check reasonbench tests scripts
echo "[test] mypy"
"$VENV/bin/mypy" reasonbench
# One pytest-xdist worker per core, at most 4 (each worker builds its own small benchmark and
# tiny model, and serves it): on the 2-core CI machine the suite takes about half the wall time.
# Tests pin their torch threads to 1, so two workers do not spin-wait against each other.
# REASONBENCH_TEST_WORKERS=0 runs everything in this one process.
cores=$(nproc 2>/dev/null || echo 1)
WORKERS="${REASONBENCH_TEST_WORKERS:-$(( cores < 4 ? cores : 4 ))}"
echo "[test] pytest ($WORKERS workers)"
# pytest exits 5 when it collects no tests; set -e makes that (like any failure) fail the run.
# worksteal: an idle worker takes queued tests from a busy one, so the few long tests (the
# rehearsal, the overfit cases) do not leave one worker running alone at the end.
"$VENV/bin/python" -m pytest -q --durations=20 -n "$WORKERS" --dist worksteal "$@"
