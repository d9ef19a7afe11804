"""Run a Hydra app (``conf/<name>.yaml``) as a ``reasonbench`` subcommand.

Before Hydra sees anything, the command line is checked at the CLI edge
(:mod:`reasonbench.cli.config`: unknown keys, group options and wrongly typed values are one-line
errors) and split into Hydra's options and the overrides, so ``-m``/``--multirun`` and ``--cfg
job`` work anywhere on the line. ``--help`` prints the command's own help (its config groups and
one line per key); ``--hydra-help`` prints Hydra's. The app itself is a thin ``@hydra.main`` over a
plain ``run(cfg) -> int`` that tests call directly; whatever it raises for bad input ends in one
line (:func:`reasonbench.cli.errors.guarded`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import hydra
from omegaconf import DictConfig

from reasonbench.cli.config import CONF_DIR, ConfigError, groups_of, key_help, prepare
from reasonbench.cli.errors import fail, guarded

__all__ = ["CONF_DIR", "HYDRA_APPS", "add_hydra_parsers", "dispatch", "fail", "run_hydra"]

# Hydra's own options: (name, takes a value)
_VALUE_FLAGS = {"--cfg", "-c", "--package", "-p", "--config-path", "-cp", "--config-name", "-cn"}
_VALUE_FLAGS |= {"--config-dir", "-cd", "--experimental-rerun"}
_BARE_FLAGS = {"-m", "--multirun", "--resolve", "--hydra-help", "--version"}
_INFO = {"all", "config", "defaults", "defaults-tree", "plugins", "searchpath"}


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(Hydra options, overrides): options may stand anywhere on the command line."""
    flags: list[str] = []
    overrides: list[str] = []
    items = list(argv)
    i = 0
    while i < len(items):
        item = items[i]
        name = item.split("=", 1)[0]
        if item.startswith("-") and name in _VALUE_FLAGS and "=" not in item:
            flags += items[i : i + 2]
            i += 2
            continue
        if item in ("--info", "-i"):
            flags.append(item)
            if i + 1 < len(items) and items[i + 1] in _INFO:
                flags.append(items[i + 1])
                i += 1
        elif item.startswith("-") and (
            name in _VALUE_FLAGS or item in _BARE_FLAGS or item in ("-h", "--help")
        ):
            flags.append(item)
        elif item.startswith("-") and not item.startswith("--") and "=" not in item:
            flags.append(item)  # an unknown short option: Hydra's parser names it
        else:
            overrides.append(item)
        i += 1
    return flags, overrides


def command_help(command: str, config_name: str, description: str) -> str:
    rows = key_help(config_name)
    # the example is one of this command's own keys (not every command has an out_dir): a
    # directory key if it has one, else its first key at its default (a required key, whose
    # default "???" is no value to type, with a placeholder)
    dirs = sorted((k != "out_dir", k) for k, _, _ in rows if k.endswith("_dir"))
    first = (rows[0][0], "<value>" if rows[0][1] == "???" else rows[0][1]) if rows else None
    example = f"{dirs[0][1]}=/tmp/x" if dirs else (f"{first[0]}={first[1]}" if first else "")
    lines = [
        f"usage: reasonbench {command} [-m] [--cfg job] [KEY=VALUE ...]",
        "",
        description,
        "",
        f"Set a key with KEY=VALUE (e.g. {example or 'seed=1'}); choose a config group option with",
        "GROUP=OPTION; -m/--multirun sweeps comma-separated values (seed=0,1,2); --cfg job prints",
        "the composed config; --hydra-help shows Hydra's own help.",
    ]
    groups = groups_of(config_name)
    if groups:
        lines += ["", "config groups:"]
        lines += [f"  {g}: {', '.join(options)}" for g, options in groups.items()]
    width = min(34, max(len(k) for k, _, _ in rows)) if rows else 0
    lines += ["", "keys (default; what it does):"]
    for key, default, text in rows:
        shown = default if len(default) <= 30 else default[:27] + "..."
        lines.append(f"  {key:<{width}}  {shown}" + (f"  # {text}" if text else ""))
    return "\n".join(lines) + "\n"


def run_hydra(
    config_name: str, run: Callable[[DictConfig], int], argv: Sequence[str], description: str = ""
) -> int:
    command = config_name.replace("_", "-")
    if not (CONF_DIR / f"{config_name}.yaml").is_file():
        return fail(
            command,
            f"config {CONF_DIR / config_name}.yaml not found (reasonbench runs from a source "
            "checkout: pip install -e .)",
        )
    flags, overrides = split_argv(argv)
    if "-h" in flags or "--help" in flags:
        print(command_help(command, config_name, description), end="")
        return 0
    try:
        overrides = prepare(config_name, overrides)[1]
    except ConfigError as exc:
        return fail(command, str(exc))
    status = {"code": 0}

    @hydra.main(config_path=str(CONF_DIR), config_name=config_name, version_base="1.3")
    def app(cfg: DictConfig) -> None:
        status["code"] = max(status["code"], guarded(command, lambda: run(cfg)))

    saved = sys.argv
    # The job name titles Hydra's --hydra-help ("reasonbench generate is powered by Hydra").
    sys.argv = [
        f"reasonbench {command}",
        *flags,
        *overrides,
        f"hydra.job.name=reasonbench {command}",
    ]
    try:
        app()
    except SystemExit as exc:  # Hydra's own usage errors (already printed by its parser)
        code = exc.code if isinstance(exc.code, int) else 1
        return code or status["code"]
    finally:
        sys.argv = saved
    return status["code"]


HydraCommand = tuple[Callable[[DictConfig], int], str]  # (run(cfg) -> exit code, help text)

# Every registered Hydra subcommand: ``main`` hands their arguments to Hydra before argparse
# sees them, since argparse rejects a leading option (``--help``, ``-m``) meant for Hydra.
HYDRA_APPS: dict[str, HydraCommand] = {}


def dispatch(argv: Sequence[str]) -> int | None:
    """Run ``argv`` if it names a Hydra subcommand (its exit code), else ``None``."""
    if argv and argv[0] in HYDRA_APPS:
        fn, helptext = HYDRA_APPS[argv[0]]
        return run_hydra(config_of(argv[0]), fn, list(argv[1:]), helptext)
    return None


def config_of(command: str) -> str:
    """``conf/<name>.yaml`` of a subcommand (``judge-card`` -> ``judge_card``)."""
    return command.replace("-", "_")


def add_hydra_parsers(subparsers: Any, commands: Mapping[str, HydraCommand]) -> None:
    """One subcommand per Hydra app (listed in the top-level help); all remaining arguments
    are Hydra's."""
    for name, (fn, helptext) in commands.items():
        HYDRA_APPS[name] = (fn, helptext)
        parser = subparsers.add_parser(
            name,
            help=helptext,
            add_help=False,
            description=helptext + "; run with --help for its keys",
        )
        parser.add_argument("overrides", nargs=argparse.REMAINDER)
        config = config_of(name)
        parser.set_defaults(
            handler=lambda a, n=config, f=fn, h=helptext: run_hydra(n, f, a.overrides, h)
        )
