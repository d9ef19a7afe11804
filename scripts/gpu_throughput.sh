#!/usr/bin/env bash
# GPU throughput of the LoRA predictors, one prepared run of at most 10 minutes on one GPU
# (H200-class): a random-init Qwen3-1.7B-architecture model (real shapes and vocabulary, no
# download) in bf16 on the small benchmark's prompts.
#   1. LoRA training tokens/s, padded vs padding-free: the same 12 steps of 64 examples, same run,
#      and the loss of every step in both layouts (the varlen flash kernel must agree with SDPA).
#   2. greedy prediction of 2,400 cube targets (prompts cycled from the locked test), examples/s.
# Goals: >= 20k training tokens/s, padding-free >= 1.4x padded, 2,400 predictions <= 60 s.
#
# Runs with whatever Python holds torch there (PYTHON, default .venv/bin/python if present, else
# python3), the project on PYTHONPATH (no install needed). Packages that machine lacks (hydra-core,
# omegaconf, datasets, ...) travel as wheels in .whl/ and are installed with pip --target before
# this script runs: docs/performance.md, "GPU check, ready to run", has the exact command.
#   bash scripts/gpu_throughput.sh            # figures on stdout and in $OUT/gpu_throughput.json
#   DRY_RUN=1 bash scripts/gpu_throughput.sh  # the same steps on CPU, tiny sizes (minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
OUT=${OUT:-${TMPDIR:-/tmp}/reasonbench-gpu}        # the figures: gpu_throughput.json
WORK=${WORK:-${TMPDIR:-/tmp}/reasonbench-gpu-work}  # the small benchmark and the tiny tokenizer
mkdir -p "$OUT" "$WORK"
"$PYTHON" - <<'EOF'
import importlib, sys
import torch
missing = [m for m in ("transformers", "peft", "accelerate", "hydra", "omegaconf", "datasets")
           if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"gpu_throughput: missing Python packages {missing}: install the wheels of .whl/ "
             "first (docs/performance.md)")
import transformers, peft, accelerate
print(f"python {sys.version.split()[0]}, torch {torch.__version__}, transformers "
      f"{transformers.__version__}, peft {peft.__version__}, accelerate {accelerate.__version__}")
EOF

if [[ "${DRY_RUN:-0}" == 1 ]]; then  # every step but CUDA, at tiny sizes: the script's own check
    BENCH=(--arch tiny --device cpu --dtype bf16 --steps 2 --warmup 1 --batch-size 8
           --micro-batch-tokens 4096 --predict 64 --predict-batch-size 32)
    WORKERS=1
else
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
    "$PYTHON" -c "import torch; assert torch.cuda.is_available(), 'no CUDA device visible to torch'"
    BENCH=(--arch qwen3_1.7b --device cuda --dtype bf16 --steps 12 --warmup 3 --batch-size 64
           --micro-batch-tokens 16384 --predict 2400 --predict-batch-size 256 --goals)
    WORKERS=8
fi

if [[ ! -f "$WORK/rb-small/MANIFEST.json" ]]; then  # ~10 s
    timeout 180 "$PYTHON" -m reasonbench generate benchmark=small out_dir="$WORK/rb-small" \
        progress=false cardinality=false workers="$WORKERS"
fi
timeout 420 "$PYTHON" scripts/bench_train.py \
    --data-dir "$WORK/rb-small" --cache-dir "$WORK/tiny" "${BENCH[@]}" \
    --json "$OUT/gpu_throughput.json"
