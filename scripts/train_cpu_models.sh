#!/usr/bin/env bash
# Retrain the main job's CPU receipt predictors (model=small_cpu, docs/training.md "A model that
# learns on CPU"): one run per target (cube, direct_receipt) on the frozen train split, ~25-40 min of
# one CPU thread each. Then decode test_locked with them and check them against the committed ones
# (models/ and results/predictions/): byte-identical weights on the machine and thread count that
# trained them, accuracies within 2 points elsewhere (scripts/cpu_models.py).
#
#   bash scripts/train_cpu_models.sh              # train into runs/cpu, check against models/
#   bash scripts/train_cpu_models.sh --promote    # ... then replace models/ and the committed
#                                                 # records of every split with the new ones
set -euo pipefail
cd "$(dirname "$0")/.."
promote=false
[ "${1:-}" = "--promote" ] && promote=true
bash scripts/setup_env.sh
VENV="${REASONBENCH_VENV:-.venv}"
export PATH="$PWD/$VENV/bin:$PATH"
[ -f data/reasonbench/MANIFEST.json ] || reasonbench generate
reasonbench verify

TRAIN=(model=small_cpu lora=scratch optim=small_cpu threads=1 eval.every=200 progress=false)
for target in cube direct_receipt; do
    method="small_cpu-$target"
    reasonbench train "${TRAIN[@]}" target="$target" out_dir="runs/cpu/$method/seed0"
    reasonbench predict model=small_cpu target="$target" threads=1 run_dir="runs/cpu/$method/seed0" \
        "splits=[test_locked]" predictions_dir=runs/cpu/predictions progress=false
done
python scripts/cpu_models.py check runs/cpu models results/predictions

if $promote; then
    # the committed run directories: everything but the checkpoints (optimizer state, 3x the size)
    for target in cube direct_receipt; do
        method="small_cpu-$target"
        rm -rf "models/$method/seed0"
        mkdir -p "models/$method"
        cp -r "runs/cpu/$method/seed0" "models/$method/seed0"
        rm -rf "models/$method/seed0/checkpoints"
        # every split the tables read beyond test_locked (the main job decodes test_locked itself)
        reasonbench predict model=small_cpu target="$target" threads=1 run_dir="models/$method/seed0" \
            "splits=[calibration,dev,shift_operator,shift_linguistic,shift_depth,controls_locked]" \
            out="results/predictions/$method/seed0-more.jsonl" overwrite=true progress=false
    done
    echo "promoted runs/cpu to models/; rerun bash scripts/run_main.sh to regenerate results/"
fi
