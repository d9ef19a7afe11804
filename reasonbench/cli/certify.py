"""``reasonbench certify``: receipts for the cases of a version change of the user's evaluator.

A thin Hydra app (``conf/certify.yaml``) over :func:`reasonbench.certify.run_certify`; every bad
case file, plug-in spec, adjudicator or output path ends in one line (docs/certify.md). In a sweep
(``-m``) job i writes to ``<out_dir>/<i>/``, the job folder the config's ``hydra.sweep`` names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from reasonbench.cli.hydra_app import add_hydra_parsers, fail
from reasonbench.cli.keys import typed_settings

__all__ = ["add_parser", "run"]

COMMAND = "certify"
HELP = "receipts for a version change of your own evaluator: execute the hybrids (Hydra)"


def _out_dir(configured: str) -> Path:
    """``out_dir``, or in a sweep this job's folder under it (Hydra created it)."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    if HydraConfig.initialized() and HydraConfig.get().mode == RunMode.MULTIRUN:
        return Path(HydraConfig.get().runtime.output_dir)
    return Path(configured)


def _config(cfg: DictConfig) -> Any:
    from reasonbench.certify import CertifyConfig

    data: Any = OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)
    return typed_settings(CertifyConfig, {**data, "out_dir": _out_dir(data["out_dir"])})


def run(cfg: DictConfig) -> int:
    from reasonbench.certify import run_certify

    try:
        config = _config(cfg)
    except MissingMandatoryValue as exc:
        return fail(COMMAND, f"set {exc.full_key}=... (docs/certify.md), in the command line")
    summary = run_certify(config)
    print(result_line(summary, config.out_dir))
    return 0


def result_line(summary: Any, out_dir: Path) -> str:
    """What the run did, on one line; under ``execution=monotone`` it states the assumption the
    receipts rest on and what re-asking inferred cells found (docs/certify.md#execution)."""
    counts = ", ".join(f"{n} {status}" for status, n in summary.counts.items())
    executed = f"{summary.run.executed:,} executed" if summary.run else "executed"
    assuming, check = "", summary.monotone_check
    if check is not None:
        order = summary.config["order"]
        assuming = " assuming the adjudicator is monotone" + (
            f" in {' < '.join(order)}" if order else ""
        )
        executed += f"; {check['cells_reasked']:,} inferred cell(s) re-asked; " + (
            f"the assumption failed on {check['violations']:,} case(s): rerun with "
            "execution=adaptive"
            if check["violations"]
            else "no violation of the assumption found"
        )
    return (
        f"certified {sum(summary.counts.values()):,} case(s){assuming}: {counts} ({executed}) "
        f"-> {out_dir}"
    )


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, {COMMAND: (run, HELP)})
