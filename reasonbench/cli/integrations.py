"""``reasonbench export-lm-eval | import-lm-eval | import-inspect``: ReasonBench inside
lm-evaluation-harness and inspect_ai, and their logs back as prediction records
(docs/integrations.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from reasonbench.cli.hydra_app import add_hydra_parsers, fail


def run_export_lm_eval(cfg: DictConfig) -> int:
    from reasonbench.integrations.lm_eval import GROUP, export_tasks

    targets = None if cfg.targets is None else [str(t) for t in cfg.targets]
    out_dir = Path(cfg.out_dir)
    written = export_tasks(
        Path(cfg.data_dir),
        out_dir,
        str(cfg.split),
        targets,
        instruction=bool(cfg.instruction),
        trim=bool(cfg.trim),
        overwrite=bool(cfg.overwrite),
    )
    tasks = [p.stem for p in written if p.stem != GROUP]
    print(
        f"wrote {len(tasks)} lm-eval task(s) on split {cfg.split} and the group {GROUP} -> {out_dir}"
    )
    print(
        f"run: lm_eval --model hf --model_args pretrained=<model dir> --include_path {out_dir} "
        f"--tasks {GROUP} --log_samples --output_path <dir>"
    )
    return 0


def _import(command: str, harness: str, cfg: DictConfig) -> int:
    from reasonbench.integrations.logs import (
        READERS,
        ImportSettings,
        LogsRead,
        import_logs,
        record_file,
    )

    if OmegaConf.is_missing(cfg, "log"):
        return fail(command, "set log=... (the harness's log to import), in the command line")
    settings = ImportSettings(
        Path(cfg.data_dir),
        Path(cfg.predictions_dir),
        None if cfg.name is None else str(cfg.name),
        int(cfg.seed),
        bool(cfg.overwrite),
    )
    read = LogsRead.of(READERS.get(harness)(Path(cfg.log)))
    if not read.logs:
        said = read.skipped_line()
        return fail(
            command, f"no log of a reasonbench task in {cfg.log}" + (f" ({said})" if said else "")
        )
    done = import_logs(read.logs, settings, command)
    if read.skipped:
        print(read.skipped_line())
    for item in done:
        log, n = item.log, len(item.records)
        where = settings.predictions_dir / item.method / record_file(log.split, settings.seed)
        agreed = (
            f"the harness's {len(log.metrics)} metrics equal the records'"
            if log.metrics
            else "the harness reported no metric"
        )
        print(
            f"{item.method}: {n} records of {log.split} ({log.target}) from {harness} task "
            f"{log.task} -> {where}; strict parse ok {item.parse_ok}/{n}; {agreed}"
        )
    return 0


def run_import_lm_eval(cfg: DictConfig) -> int:
    return _import("import-lm-eval", "lm-eval", cfg)


def run_import_inspect(cfg: DictConfig) -> int:
    return _import("import-inspect", "inspect", cfg)


COMMANDS = {
    "export-lm-eval": (
        run_export_lm_eval,
        "an lm-evaluation-harness task directory over a local build, scored by the frozen "
        "parsers (Hydra)",
    ),
    "import-lm-eval": (
        run_import_lm_eval,
        "lm-evaluation-harness logs of the exported tasks -> prediction records (Hydra)",
    ),
    "import-inspect": (
        run_import_inspect,
        "inspect_ai logs of the reasonbench task -> prediction records (Hydra)",
    ),
}


def add_parsers(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, COMMANDS)
