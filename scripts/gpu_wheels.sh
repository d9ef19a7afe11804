#!/usr/bin/env bash
# The wheels scripts/gpu_throughput.sh needs on a GPU machine that has torch, transformers, peft
# and accelerate but neither hydra-core, omegaconf nor datasets, and no network: pure-Python
# wheels for its Python (3.12 by default), into .whl/ (git-ignored by its own .gitignore).
# The versions are constraints.txt's. See docs/performance.md, "GPU check, ready to run".
#   bash scripts/gpu_wheels.sh                 # for Python 3.12
#   PY_VERSION=3.11 bash scripts/gpu_wheels.sh # for another Python (multiprocess is per version)
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
PY_VERSION=${PY_VERSION:-3.12}
DEST=${DEST:-.whl}
pin() { grep -i "^$1==" constraints.txt | cut -d= -f3; }

mkdir -p "$DEST"
echo '*' >"$DEST/.gitignore"  # the folder ignores itself: nothing of it is ever committed
# missing there: hydra-core and omegaconf (every command), datasets with dill and multiprocess
# (generate writes the Hugging Face copy of the benchmark)
"$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: --python-version "$PY_VERSION" \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d "$DEST" \
    "hydra-core==$(pin hydra-core)" "omegaconf==$(pin omegaconf)" "datasets==$(pin datasets)" \
    "dill==$(pin dill)" "multiprocess==$(pin multiprocess)"
# antlr4-python3-runtime (omegaconf's parser) exists only as a source archive: build its wheel
"$PYTHON" -m pip wheel --quiet --no-deps -w "$DEST" \
    "antlr4-python3-runtime==$(pin antlr4-python3-runtime)"
ls -l "$DEST"
