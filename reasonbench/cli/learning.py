"""``reasonbench train | predict | export-model``: LoRA receipt predictors, batched greedy
inference, and a trained run as a model directory any tool loads."""

from __future__ import annotations

from typing import Any

from omegaconf import DictConfig

from reasonbench.cli.hydra_app import add_hydra_parsers, fail


def _main_process() -> bool:
    """Under ``accelerate launch`` only the main process reports (every process runs this)."""
    from accelerate import PartialState

    return bool(PartialState().is_main_process)


def run_train(cfg: DictConfig) -> int:
    from reasonbench.infer.curve import plan_curve
    from reasonbench.models import BackboneNotFound
    from reasonbench.train import RunConflict, train
    from reasonbench.train.augment import AugmentError

    try:
        summary = train(cfg, plan_curve)
    except (BackboneNotFound, RunConflict, AugmentError, FileNotFoundError, ValueError) as exc:
        return fail("train", str(exc))
    if not _main_process():
        return 0
    where = f"{summary['method']} seed {summary['seed']}"
    if summary.get("skipped"):
        print(f"{where}: already trained ({cfg.out_dir}/RUN.json); nothing to do")
    elif summary["finished"]:
        print(
            f"{where}: trained {summary['steps']} steps (resumed from {summary['resumed_from']}), "
            f"last loss {summary['last_loss']:.4f}, {summary['tokens_per_s']} tokens/s -> {cfg.out_dir}"
        )
    else:
        print(
            f"{where}: stopped at step {summary['steps']} of {summary['total_steps']}; "
            "rerun the same command to continue from the last checkpoint"
        )
    return 0


def run_predict(cfg: DictConfig) -> int:
    from reasonbench.infer import PredictError, predict
    from reasonbench.models import BackboneNotFound

    try:
        report = predict(cfg)
    except (BackboneNotFound, PredictError, FileNotFoundError, ValueError) as exc:
        return fail("predict", str(exc))
    if not _main_process():
        return 0
    print(
        f"{report['method']} seed {report['seed']}: {report['records']:,} records "
        f"({report['computed']:,} generated, {report['cached']:,} from cache, "
        f"parse failures {report['parse_failures']:,}) -> {report['out']}"
    )
    return 0


def run_export_model(cfg: DictConfig) -> int:
    from pathlib import Path

    from reasonbench.io import OutputError
    from reasonbench.models.export import ExportError, export_model

    data_dir = Path(cfg.data_dir) if cfg.data_dir else None
    try:
        record = export_model(Path(cfg.run), Path(cfg.out_dir), data_dir, bool(cfg.overwrite))
    except (ExportError, OutputError) as exc:
        return fail("export-model", str(exc))
    print(
        f"{record['method']} seed {record['seed']} ({record['tuning']}, merged): a Hugging Face "
        f"model directory -> {cfg.out_dir}"
    )
    return 0


COMMANDS = {
    "train": (run_train, "LoRA-train one model x target x seed; resumes after a kill (Hydra)"),
    "predict": (
        run_predict,
        "batched greedy decoding of a trained run -> prediction records, cached (Hydra)",
    ),
    "export-model": (
        run_export_model,
        "a trained run as a Hugging Face model directory, merged, for any tool (Hydra)",
    ),
}


def add_parsers(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, COMMANDS)
