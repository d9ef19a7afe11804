#!/usr/bin/env bash
# The main job: set up .venv, then run reasonbench's main pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
VENV="${REASONBENCH_VENV:-.venv}"
export PATH="$PWD/$VENV/bin:$PATH"
reasonbench --help
echo "[main] certifying the worked example of docs/semantics.md"
reasonbench receipt --cube data/examples/worked_cube.json
reasonbench receipt --adaptive --cube data/examples/worked_cube.json
