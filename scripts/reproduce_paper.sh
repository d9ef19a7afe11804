#!/usr/bin/env bash
# The paper's whole GPU protocol (spec §6): LoRA runs of Qwen3-1.7B and Qwen3-0.6B on the four
# targets x 5 seeds, permutation-augmented training (3 seeds), the cardinality experiment's two
# arms (direct_receipt and cube, 5 seeds each); then predictions on every non-train split, the
# analysis and the tables. See docs/training.md.
#
#   bash scripts/reproduce_paper.sh                 # one GPU
#   NUM_GPUS=8 bash scripts/reproduce_paper.sh      # data parallel on 8 GPUs (accelerate launch)
#   DRY_RUN=1 bash scripts/reproduce_paper.sh       # print the plan and the estimate only
#   REHEARSAL=1 bash scripts/reproduce_paper.sh     # every run on CPU in minutes: benchmark=small,
#                                                   # both backbones mapped to the tiny model
#   REHEARSAL=1 LAUNCHER=submitit_local bash scripts/reproduce_paper.sh   # its sweeps as jobs
#
# Needs the backbones on disk (`hf download Qwen/Qwen3-1.7B` and `Qwen/Qwen3-0.6B` on a connected
# machine; nothing downloads at run time). Every step is resumable: rerun the script after any
# interruption and finished runs/predictions are skipped, interrupted ones continue.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}

if [[ "${REHEARSAL:-0}" == 1 ]]; then  # reasonbench/rehearsal.py; outputs in REHEARSAL_DIR
    args=(--root "${REHEARSAL_DIR:-runs/rehearsal}" --scale "${REHEARSAL_SCALE:-full}")
    if [[ -n "${LAUNCHER:-}" ]]; then args+=(--launcher "$LAUNCHER"); fi
    exec "$PYTHON" -m reasonbench.rehearsal "${args[@]}"
fi

NUM_GPUS=${NUM_GPUS:-1}
DATA_DIR=${DATA_DIR:-data/reasonbench}
SPEEDUP=${SPEEDUP:-1}   # your GPU's throughput relative to the H200 goals, for the estimate

echo "== plan"
"$PYTHON" -m reasonbench.train.protocol --estimate --speedup "$SPEEDUP"
echo "   on $NUM_GPUS GPU(s): divide the hours by about $NUM_GPUS for wall-clock time"
if [[ "${DRY_RUN:-0}" == 1 ]]; then
    "$PYTHON" -m reasonbench.train.protocol --list
    exit 0
fi

if [[ "$NUM_GPUS" -gt 1 ]]; then
    LAUNCH=("$PYTHON" -m accelerate.commands.launch --multi_gpu --num_processes "$NUM_GPUS"
            -m reasonbench)
else
    LAUNCH=("$PYTHON" -m reasonbench)
fi

if [[ ! -f "$DATA_DIR/MANIFEST.json" ]]; then
    echo "== generate the benchmark"
    "$PYTHON" -m reasonbench generate out_dir="$DATA_DIR" workers="$(nproc)"
fi
"$PYTHON" -m reasonbench verify data_dir="$DATA_DIR"

runs=$("$PYTHON" -m reasonbench.train.protocol --list)
total=$(wc -l <<<"$runs")
n=0
while read -r -a overrides; do
    n=$((n + 1))
    echo "== run $n/$total: ${overrides[*]}"
    "${LAUNCH[@]}" train "${overrides[@]}" data_dir="$DATA_DIR" </dev/null
    "${LAUNCH[@]}" predict "${overrides[@]}" data_dir="$DATA_DIR" </dev/null
done <<<"$runs"

echo "== analyze and tables"
"$PYTHON" -m reasonbench baselines data_dir="$DATA_DIR"
"$PYTHON" -m reasonbench analyze data_dir="$DATA_DIR"
"$PYTHON" -m reasonbench tables data_dir="$DATA_DIR"
