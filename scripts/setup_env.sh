#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment in .venv from the pinned constraints.
# Re-running is cheap: the install is skipped when constraints.txt, pyproject.toml and the extras
# installed are unchanged. The extras: dev (tests, lint) and the two evaluation harnesses the
# integration tests run (lm-eval, inspect; docs/integrations.md).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV="${REASONBENCH_VENV:-.venv}"

if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating virtual environment in $VENV"
  "$PYTHON" -m venv "$VENV"
fi

EXTRAS="dev,lm-eval,inspect"
stamp="$VENV/.reasonbench-install"
want="$( (cat constraints.txt pyproject.toml; echo "$EXTRAS") | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "[setup] $VENV is up to date"
  exit 0
fi

# A CPU torch wheel may lie on this machine's disk; pip must prefer it to a multi-GB CUDA build.
extra=()
if [ -d /opt/wheels ]; then extra+=(--find-links /opt/wheels); fi

echo "[setup] installing reasonbench and pinned dependencies into $VENV (first run takes minutes)"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "${extra[@]}" -c constraints.txt -e ".[$EXTRAS]"
echo "$want" > "$stamp"
echo "[setup] done"
