#!/usr/bin/env bash
# GPU throughput of the LoRA predictors, one prepared run of at most 8 minutes on one GPU
# (H200-class): a random-init Qwen3-1.7B-architecture model (real shapes and vocabulary, no
# download) in bf16 on the small benchmark's prompts.
#   1. LoRA training tokens/s, padded vs padding-free: the same 12 steps of 64 examples, same run.
#   2. greedy prediction of 2,400 cube targets (prompts cycled from the locked test), examples/s.
# Goals: >= 20k training tokens/s, padding-free >= 1.4x padded, 2,400 predictions <= 60 s.
# Needs a CUDA build of torch 2.13 in the environment (README: GPU users).
#   bash scripts/gpu_throughput.sh            # figures on stdout and in $OUT/gpu_throughput.json
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
OUT=${OUT:-${TMPDIR:-/tmp}/reasonbench-gpu}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
"$PYTHON" -c "import torch; assert torch.cuda.is_available(), 'no CUDA device visible to torch'"

if [[ ! -f "$OUT/rb-small/MANIFEST.json" ]]; then  # ~10 s
    timeout 120 "$PYTHON" -m reasonbench.cli.main generate benchmark=small out_dir="$OUT/rb-small" \
        progress=false cardinality=false workers=8
fi
timeout 400 "$PYTHON" scripts/bench_train.py \
    --data-dir "$OUT/rb-small" --cache-dir "$OUT/tiny" \
    --arch qwen3_1.7b --device cuda --dtype bf16 \
    --steps 12 --warmup 3 --batch-size 64 --micro-batch-tokens 16384 \
    --predict 2400 --predict-batch-size 256 \
    --goals --json "$OUT/gpu_throughput.json"
