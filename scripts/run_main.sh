#!/usr/bin/env bash
# The main job: set up .venv, then regenerate the frozen paper splits, verify them against the
# committed manifest, audit them, run the CPU baselines and the tiny model (a pipeline check),
# analyze (two-plane audit included) and write the paper's tables.
# Extra arguments are passed to every Hydra step (e.g. workers=1). It ends by comparing the fresh
# results/ with the committed ones (docs/analysis.md §10).
set -euo pipefail
cd "$(dirname "$0")/.."

# -- the reference: the committed results/, snapshotted before any step writes there. HEAD's copy,
# -- not the working tree's, so a local edit or an earlier run never becomes the reference.
committed=$(mktemp -d)
trap 'rm -rf "$committed"' EXIT
if git rev-parse -q --verify HEAD:results >/dev/null 2>&1; then
    git archive HEAD results | tar -x -C "$committed"
fi
bash scripts/setup_env.sh
VENV="${REASONBENCH_VENV:-.venv}"
export PATH="$PWD/$VENV/bin:$PATH"
start=$(date +%s)
step() { echo; echo "[main] $* ($(( $(date +%s) - start )) s)"; }

step "certifying the worked example of docs/semantics.md"
reasonbench receipt cube=data/examples/worked_cube.json
step "regenerating the paper-scale benchmark"
reasonbench generate "$@"
step "verifying every file against data/manifests/paper.json"
reasonbench verify
step "auditing labels, leakage, overlap, controls, shifts and quotas"
reasonbench audit "$@"
step "CPU baselines (majority, char TF-IDF)"
reasonbench baselines
# The tiny Qwen3-architecture model (conf/model/tiny.yaml) is a pipeline check, not a paper
# result: a few hundred LoRA steps teach it the answer format, not the task. It predicts the two
# splits the two-plane audit needs. Both run on one torch thread, their default `threads: 1` (set
# by the commands themselves, whatever OMP_NUM_THREADS): the same adapter and confidences on any
# machine, and much faster than two threads on a shared one.
step "tiny model, a pipeline check: LoRA on train (300 steps), predict calibration + test_locked"
reasonbench train model=tiny target=direct_receipt optim.max_steps=300 optim.lr=3.0e-3
reasonbench predict model=tiny target=direct_receipt "splits=[calibration,test_locked]" batch_size=128
step "analysis (bootstrap, Holm, consistency, selective debt, two-plane audit)"
reasonbench analyze
step "tables and figures"
reasonbench tables
step "Judge Cards of the baselines (policy-invariance stress test beside accuracy)"
for judge in majority tfidf; do
    reasonbench judge-card judge="$judge" write_answers=false
done

# -- the check: the fresh results/ against the committed ones, within the tolerance of
# -- docs/analysis.md §10 (exit 1 naming every difference beyond it).
step "comparing results/ with the committed results/ (reasonbench compare)"
if [ -d "$committed/results" ]; then
    reasonbench compare left="$committed/results" right=results
else
    echo "no committed results/ to compare with (not a git checkout, or none committed)"
fi
step "done: results/README.md, results/tables/, results/figures/, results/audit/paper/, results/judge_cards/"
