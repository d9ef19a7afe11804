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
echo "[test] pytest"
# pytest exits 5 when it collects no tests; set -e makes that (like any failure) fail the run.
"$VENV/bin/python" -m pytest -q --durations=20 "$@"
