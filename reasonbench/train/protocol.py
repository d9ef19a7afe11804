"""The paper's GPU protocol (spec §6) as a list of runs, and what it will cost.

``python -m reasonbench.train.protocol --list`` prints one line of Hydra overrides per run (the
loop of ``scripts/reproduce_paper.sh``); ``--sweeps`` prints the same runs as three Hydra sweeps
(``reasonbench train -m <line>``); ``--estimate`` prints the number of runs and an estimate of GPU
hours from the token counts of the paper benchmark and the measured (or goal) throughput.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reasonbench.targets import TARGETS

MODELS = ("qwen3_1.7b", "qwen3_0.6b")
SEEDS = (0, 1, 2, 3, 4)
PERMAUG_SEEDS = (0, 1, 2)
PERMAUG_TARGETS = (
    "direct_receipt",
    "cube",
)  # conf/methods/paper.yaml: permaug_direct, permaug_cube
CARDINALITY_TARGETS = ("direct_receipt", "cube")  # both arms of the cardinality experiment

# Paper benchmark sizes (docs/benchmark.md) and Qwen3 token counts (prompt + cue; targets + eos).
TRAIN_EXAMPLES = {"paper": 10_320, "cardinality": 4_000, "permaug": 15_480}  # permaug: rate 0.5
# every split but train: calibration, dev, test_locked, 3 shifts, controls, cardinality_test
PREDICTED = {"paper": 17_600, "cardinality": 17_600, "permaug": 17_600}
PROMPT_TOKENS = 420
TARGET_TOKENS = {"direct_verdict": 5, "direct_receipt": 15, "rationale_receipt": 130, "cube": 45}
EPOCHS = 2
# Throughput per GPU: training tokens/s and cube predictions/s (the H200 goals in
# docs/training.md; the 0.6B model is about 2.5x faster). Override with --tokens-per-s etc.
TRAIN_TOKENS_PER_S = {"qwen3_1.7b": 20_000.0, "qwen3_0.6b": 50_000.0}
CUBE_PREDICTIONS_PER_S = {"qwen3_1.7b": 40.0, "qwen3_0.6b": 80.0}


@dataclass(frozen=True)
class Run:
    model: str
    target: str
    data: str
    seed: int

    def overrides(self) -> str:
        return f"model={self.model} target={self.target} data={self.data} seed={self.seed}"


@dataclass(frozen=True)
class Sweep:
    """One Hydra sweep of the protocol: every model x target x seed on one data variant."""

    models: tuple[str, ...]
    targets: tuple[str, ...]
    data: str
    seeds: tuple[int, ...]

    def runs(self) -> list[Run]:
        return [
            Run(m, t, self.data, s) for m in self.models for t in self.targets for s in self.seeds
        ]

    def overrides(self) -> list[str]:
        """The sweep as ``reasonbench train -m`` overrides."""
        return [
            f"model={','.join(self.models)}",
            f"target={','.join(self.targets)}",
            f"data={self.data}",
            f"seed={','.join(str(s) for s in self.seeds)}",
        ]

    def mapped(self, models: Mapping[str, str], seeds: int | None = None) -> Sweep:
        """The same sweep with models renamed (a rehearsal's stand-ins) and, given ``seeds``,
        only the first ``seeds`` seeds."""
        kept = self.seeds if seeds is None else self.seeds[:seeds]
        return Sweep(tuple(models[m] for m in self.models), self.targets, self.data, kept)


def protocol(models: Sequence[str] = MODELS) -> tuple[Sweep, ...]:
    """The paper's runs (spec §6): both backbones x 4 targets x 5 seeds; permutation
    augmentation (3 seeds) and the cardinality experiment's two arms (5 seeds) on the first."""
    return (
        Sweep(tuple(models), tuple(TARGETS), "paper", SEEDS),
        Sweep((MODELS[0],), PERMAUG_TARGETS, "permaug", PERMAUG_SEEDS),
        Sweep((MODELS[0],), CARDINALITY_TARGETS, "cardinality", SEEDS),
    )


def paper_runs(models: Sequence[str] = MODELS) -> list[Run]:
    return [run for sweep in protocol(models) for run in sweep.runs()]


def gpu_seconds(run: Run, speedup: float = 1.0) -> float:
    """Training (epochs x tokens / throughput) plus prediction (decode time grows with the
    target's length; the cube's measured rate is the reference)."""
    tokens = TRAIN_EXAMPLES[run.data] * (PROMPT_TOKENS + TARGET_TOKENS[run.target]) * EPOCHS
    train = tokens / (TRAIN_TOKENS_PER_S[run.model] * speedup)
    relative = (10 + TARGET_TOKENS[run.target]) / (10 + TARGET_TOKENS["cube"])
    predict = PREDICTED[run.data] / (CUBE_PREDICTIONS_PER_S[run.model] * speedup) * relative
    return train + predict


def summary(runs: Sequence[Run], speedup: float = 1.0) -> str:
    hours = sum(gpu_seconds(r, speedup) for r in runs) / 3600
    by_kind: dict[str, int] = {}
    for r in runs:
        by_kind[f"{r.model} {r.data}"] = by_kind.get(f"{r.model} {r.data}", 0) + 1
    parts = ", ".join(f"{k}: {n}" for k, n in by_kind.items())
    return (
        f"{len(runs)} runs ({parts}); estimated {hours:.1f} GPU hours "
        f"(train {EPOCHS} epochs + predict every non-train split; H200-class GPU at the "
        f"throughput goals x {speedup:g})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", action="store_true", help="print one override line per run")
    parser.add_argument(
        "--sweeps", action="store_true", help="print one `-m` override line per Hydra sweep"
    )
    parser.add_argument("--estimate", action="store_true", help="print runs and GPU hours")
    parser.add_argument("--models", nargs="+", default=list(MODELS))
    parser.add_argument(
        "--speedup", type=float, default=1.0, help="your GPU's throughput relative to the goals"
    )
    args = parser.parse_args(argv)
    runs = paper_runs(args.models)
    if args.list:
        print("\n".join(run.overrides() for run in runs), flush=True)
    if args.sweeps:
        print("\n".join(" ".join(s.overrides()) for s in protocol(args.models)), flush=True)
    if args.estimate or not (args.list or args.sweeps):
        print(summary(runs, args.speedup))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
