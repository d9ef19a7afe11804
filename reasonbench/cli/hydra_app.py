"""Run a Hydra app (``conf/<name>.yaml``) as a ``reasonbench`` subcommand.

The subcommand's remaining arguments go to Hydra unchanged, so overrides, ``--cfg job``,
``--multirun`` and Hydra's ``--help`` all work. The app itself is a thin ``@hydra.main`` over a
plain ``run(cfg) -> int`` that tests call directly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import hydra
from omegaconf import DictConfig

CONF_DIR = Path(__file__).resolve().parents[2] / "conf"


def run_hydra(config_name: str, run: Callable[[DictConfig], int], argv: Sequence[str]) -> int:
    if not (CONF_DIR / f"{config_name}.yaml").is_file():
        print(
            f"reasonbench {config_name}: error: config {CONF_DIR / config_name}.yaml not found "
            "(reasonbench runs from a source checkout: pip install -e .)",
            file=sys.stderr,
        )
        return 2
    status = {"code": 0}

    @hydra.main(config_path=str(CONF_DIR), config_name=config_name, version_base="1.3")
    def app(cfg: DictConfig) -> None:
        status["code"] = max(status["code"], run(cfg))

    saved = sys.argv
    # The job name titles Hydra's --help ("reasonbench generate is powered by Hydra").
    sys.argv = [f"reasonbench {config_name}", *argv, f"hydra.job.name=reasonbench {config_name}"]
    try:
        app()
    finally:
        sys.argv = saved
    return status["code"]


HydraCommand = tuple[Callable[[DictConfig], int], str]  # (run(cfg) -> exit code, help text)

# Every registered Hydra subcommand: ``main`` hands their arguments to Hydra before argparse
# sees them, since argparse rejects a leading option (``--help``, ``-m``) meant for Hydra.
HYDRA_APPS: dict[str, Callable[[DictConfig], int]] = {}


def dispatch(argv: Sequence[str]) -> int | None:
    """Run ``argv`` if it names a Hydra subcommand (its exit code), else ``None``."""
    if argv and argv[0] in HYDRA_APPS:
        return run_hydra(config_of(argv[0]), HYDRA_APPS[argv[0]], list(argv[1:]))
    return None


def config_of(command: str) -> str:
    """``conf/<name>.yaml`` of a subcommand (``judge-card`` -> ``judge_card``)."""
    return command.replace("-", "_")


def add_hydra_parsers(subparsers: Any, commands: Mapping[str, HydraCommand]) -> None:
    """One subcommand per Hydra app (listed in the top-level help); all remaining arguments
    are Hydra's."""
    for name, (fn, helptext) in commands.items():
        HYDRA_APPS[name] = fn
        parser = subparsers.add_parser(
            name,
            help=helptext,
            add_help=False,
            description=helptext + "; run with --help for Hydra's help",
        )
        parser.add_argument("overrides", nargs=argparse.REMAINDER)
        config = config_of(name)
        parser.set_defaults(handler=lambda a, n=config, f=fn: run_hydra(n, f, a.overrides))


def fail(command: str, message: str) -> int:
    """One clear line on stderr; exit status 2 (bad input or configuration)."""
    print(f"reasonbench {command}: error: {message}", file=sys.stderr)
    return 2
