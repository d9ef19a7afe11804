"""``reasonbench certify``: receipts for the cases of a version change of the user's evaluator.

A thin Hydra app (``conf/certify.yaml``) over :func:`reasonbench.certify.run_certify`; every bad
case file, plug-in spec, adjudicator or output path ends in one line (docs/certify.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from reasonbench.cli.hydra_app import add_hydra_parsers, fail

__all__ = ["add_parser", "run"]

COMMAND = "certify"
HELP = "receipts for a version change of your own evaluator: execute the hybrids (Hydra)"


def _config(cfg: DictConfig) -> Any:
    from reasonbench.certify import CertifyConfig

    data: Any = OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)
    optional = {k: tuple(data[k]) if data[k] is not None else None for k in ("order", "sources")}
    return CertifyConfig(
        cases=Path(data["cases"]),
        adjudicator=str(data["adjudicator"]),
        labels=tuple(str(label) for label in data["labels"]),
        out_dir=Path(data["out_dir"]),
        execution=str(data["execution"]),
        overwrite=bool(data["overwrite"]),
        budget=data["budget"],
        order=optional["order"],
        repeats=int(data["repeats"]),
        workers=int(data["workers"]),
        timeout_s=float(data["timeout_s"]),
        cache=None if data["cache"] is None else Path(data["cache"]),
        adjudicator_version=str(data["adjudicator_version"]),
        sources=optional["sources"],
        progress=bool(data["progress"]),
        plugin_options=dict(data["plugin_options"]),
    )


def run(cfg: DictConfig) -> int:
    from reasonbench.certify import run_certify

    try:
        config = _config(cfg)
    except MissingMandatoryValue as exc:
        return fail(COMMAND, f"set {exc.full_key}=... (docs/certify.md), in the command line")
    summary = run_certify(config)
    counts = ", ".join(f"{n} {status}" for status, n in summary.counts.items())
    executed = f"{summary.run.executed:,} executed" if summary.run else "executed"
    print(
        f"certified {sum(summary.counts.values()):,} case(s): {counts} ({executed}) -> {config.out_dir}"
    )
    return 0


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, {COMMAND: (run, HELP)})
