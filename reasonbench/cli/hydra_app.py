"""Run a Hydra app (``conf/<name>.yaml``) as a ``reasonbench`` subcommand.

Before Hydra sees anything, the plug-ins are imported (:mod:`reasonbench.plugins`: installed
entry points, then the modules of ``plugins=[...]``), and the command line is checked at the CLI
edge (:mod:`reasonbench.cli.config`: unknown keys, group options and wrongly typed values are
one-line errors) and split into Hydra's options and the overrides, so ``-m``/``--multirun`` and
``--cfg job`` work anywhere on the line. ``--help`` prints the command's own help (its config
groups and one line per key); ``--hydra-help`` prints Hydra's. The app itself is a thin
``@hydra.main`` over a plain ``run(cfg) -> int`` that tests call directly; whatever it raises for
bad input ends in one line (:func:`reasonbench.cli.errors.guarded`).

Before ``run``, the plug-ins recorded by what the command reads (:data:`RECORDED_INPUTS`: a
benchmark's ``MANIFEST.json``, a metrics file, a prediction run's meta) are loaded too, or the
command refuses in one line naming the one it cannot import (:func:`carry_recorded`).

The ``--flags`` a command took before it read ``key=value`` (``receipt --cube F``) still work
for one release: each is rewritten to its key (``cube=F``) with one deprecation line on stderr.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import hydra
from omegaconf import DictConfig, OmegaConf

from reasonbench.cli.config import (
    CONF_DIR,
    PLUGINS_HELP,
    ConfigError,
    groups_of,
    hydra_quoted,
    key_help,
    plugins_of,
    prepare,
    without_hydra,
)
from reasonbench.cli.errors import fail, guarded
from reasonbench.plugins import PluginError, carry_plugins_from, load_plugins

__all__ = [
    "CONF_DIR",
    "HYDRA_APPS",
    "RECORDED_INPUTS",
    "add_hydra_parsers",
    "carry_recorded",
    "dispatch",
    "fail",
    "run_hydra",
]

# Hydra's own options: (name, takes a value)
_VALUE_FLAGS = {"--cfg", "-c", "--package", "-p", "--config-path", "-cp", "--config-name", "-cn"}
_VALUE_FLAGS |= {"--config-dir", "-cd", "--experimental-rerun"}
_BARE_FLAGS = {"-m", "--multirun", "--resolve", "--hydra-help", "--version"}
_INFO = {"all", "config", "defaults", "defaults-tree", "plugins", "searchpath"}
# ``--cfg job`` alone prints the composed job config: answered without ``@hydra.main``, which
# would compose the command line once more (with --package/--resolve it still goes to Hydra)
_SHOW_JOB = (["--cfg", "job"], ["-c", "job"])


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


# A deprecated flag -> (its key, whether it takes a value); a bare flag means key=true.
LegacyFlags = Mapping[str, tuple[str, bool]]


def legacy_flags(command: str, legacy: LegacyFlags, argv: Sequence[str]) -> list[str]:
    """``argv`` with the command's deprecated ``--flags`` rewritten to ``key=value``; one line on
    stderr says what to write instead. :class:`ConfigError` for a flag without its value. A value
    is passed as the text typed (a path stays a path), a group option as the option's name."""
    groups = groups_of(config_of(command)) if legacy else {}
    out: list[str] = []
    old: list[str] = []
    new: list[str] = []
    items = list(argv)
    while items:
        item = items.pop(0)
        flag, eq, value = item.partition("=")
        if flag not in legacy:
            out.append(item)
            continue
        key, takes_value = legacy[flag]
        if not takes_value:
            if eq:
                raise ConfigError(f"{flag} takes no value (write {key}=true), in the command line")
            value = "true"
        elif not eq:
            if not items:
                raise ConfigError(f"{flag} needs a value (write {key}=...), in the command line")
            value = items.pop(0)
        old.append(flag)
        new.append(f"{key}={value}" if not takes_value else f"{key}={shlex.quote(value)}")
        verbatim = takes_value and key not in groups
        out.append(f"{key}={hydra_quoted(value)}" if verbatim else f"{key}={value}")
    if old:
        print(
            f"reasonbench {command}: warning: {', '.join(old)} "
            f"{'is' if len(old) == 1 else 'are'} deprecated and will be removed in the next "
            f"release; write {' '.join(new)}",
            file=sys.stderr,
            flush=True,
        )
    return out


def command_help(
    command: str, config_name: str, description: str, choices: Sequence[str] = ()
) -> str:
    rows = [*key_help(config_name, choices), ("plugins", "[]", PLUGINS_HELP)]
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


# What a key of a command names, among the inputs that record the plug-ins they were written
# with: a benchmark directory (its MANIFEST.json), a file (metrics.json) or a directory of
# prediction records (every run's ``<stem>.meta.json`` and ``evaluate.json`` under it).
BENCHMARK, FILE, PREDICTIONS = "benchmark", "file", "predictions"
# command -> (key, what it names), in the order the command reads them. ``verify`` (hashes only)
# and ``compare`` (numbers only) read no registry, and an output directory is no input.
RECORDED_INPUTS: dict[str, tuple[tuple[str, str], ...]] = {
    "audit": (("data_dir", BENCHMARK),),
    "baselines": (("data_dir", BENCHMARK),),
    "analyze": (("data_dir", BENCHMARK), ("predictions_dir", PREDICTIONS)),
    "tables": (("metrics", FILE), ("data_dir", BENCHMARK)),
    "judge-card": (("data_dir", BENCHMARK),),
    "evaluate": (("data_dir", BENCHMARK),),
    "train": (("data_dir", BENCHMARK),),
    "predict": (("data_dir", BENCHMARK),),
    "export-lm-eval": (("data_dir", BENCHMARK),),
    "import-lm-eval": (("data_dir", BENCHMARK),),
    "import-inspect": (("data_dir", BENCHMARK),),
}
RUN_METAS = ("*.meta.json", "evaluate.json")  # what a prediction run writes beside its records


def recording_files(what: str, path: Path) -> list[Path]:
    """The files of the input ``path`` (a ``what`` of :data:`RECORDED_INPUTS`) that may record
    plug-ins (absent ones included: :func:`~reasonbench.plugins.carry_plugins_from` skips them)."""
    if what == BENCHMARK:
        return [path / "MANIFEST.json"]
    if what == PREDICTIONS:
        return (
            sorted({f for pattern in RUN_METAS for f in path.rglob(pattern)})
            if path.is_dir()
            else []
        )
    return [path]


def carry_recorded(command: str, cfg: DictConfig) -> None:
    """Load the plug-ins that the inputs ``command`` reads were written with (as
    ``plugins=[...]`` would), before it reads them: :class:`PluginError` for one that cannot be
    imported, in one line that names it and the key to set (docs/extending.md)."""
    for key, what in RECORDED_INPUTS.get(command, ()):
        if key not in cfg or OmegaConf.is_missing(cfg, key):
            continue  # the command itself asks for a required key
        value = OmegaConf.select(cfg, key, throw_on_resolution_failure=False)
        if isinstance(value, str) and value:
            for path in recording_files(what, Path(value)):
                carry_plugins_from(path)


def carrying(command: str, run: Callable[[DictConfig], int]) -> Callable[[DictConfig], int]:
    """``run`` after :func:`carry_recorded`."""

    def go(cfg: DictConfig) -> int:
        carry_recorded(command, cfg)
        return run(cfg)

    return go


def run_hydra(
    command: str,
    run: Callable[[DictConfig], int],
    argv: Sequence[str],
    description: str = "",
    legacy: LegacyFlags | None = None,
) -> int:
    config_name = config_of(command)
    run = carrying(command, run)
    if not (CONF_DIR / f"{config_name}.yaml").is_file():
        return fail(
            command,
            f"config {CONF_DIR / config_name}.yaml not found (reasonbench runs from a source "
            "checkout: pip install -e .)",
        )
    try:
        flags, overrides = split_argv(legacy_flags(command, legacy or {}, argv))
        if "-h" in flags or "--help" in flags:
            print(command_help(command, config_name, description, overrides), end="")
            return 0
        modules, overrides = plugins_of(overrides)
        load_plugins(modules)  # before composing: a plug-in may add a group option
        composed, overrides = prepare(config_name, overrides)
    except (ConfigError, PluginError) as exc:
        return fail(command, str(exc))
    if not flags:  # one run: the config checked above is the one it runs with
        return run_composed(command, run, composed)
    if flags in _SHOW_JOB:  # what Hydra's show_cfg prints, from the config composed above
        sys.stdout.write(OmegaConf.to_yaml(without_hydra(composed)))
        return 0
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


def run_composed(command: str, run: Callable[[DictConfig], int], cfg: DictConfig) -> int:
    """``run`` on ``cfg`` (Hydra's node included) as ``@hydra.main`` would run one job with this
    project's settings (``hydra.run.dir: .``, no output subdirectory, no chdir): Hydra's
    runtime config set, its job logging configured, ``hydra`` removed from what ``run`` sees.
    Only sweeps (``-m``) and Hydra's own flags (``--cfg``, ``--info``, ...) go through
    ``@hydra.main``, which would compose the command line once more."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.core.utils import configure_log, setup_globals
    from hydra.types import RunMode
    from omegaconf import open_dict

    setup_globals()
    with open_dict(cfg):
        cfg.hydra.job.name = f"reasonbench {command}"
        cfg.hydra.mode = RunMode.RUN
        cfg.hydra.runtime.output_dir = str(Path(str(cfg.hydra.run.dir)).resolve())
    HydraConfig.instance().set_config(cfg)
    configure_log(cfg.hydra.job_logging, cfg.hydra.verbose)
    return guarded(command, lambda: run(without_hydra(cfg)))


HydraCommand = tuple[Callable[[DictConfig], int], str]  # (run(cfg) -> exit code, help text)

# Every registered Hydra subcommand: ``main`` hands their arguments to Hydra before argparse
# sees them, since argparse rejects a leading option (``--help``, ``-m``) meant for Hydra.
HYDRA_APPS: dict[str, HydraCommand] = {}
# The deprecated --flags of a command that took them before it read key=value.
LEGACY_FLAGS: dict[str, LegacyFlags] = {}


def dispatch(argv: Sequence[str]) -> int | None:
    """Run ``argv`` if it names a Hydra subcommand (its exit code), else ``None``."""
    for words in (2, 1):  # "clauses audit" before a one-word command
        name = " ".join(argv[:words])
        if len(argv) >= words and name in HYDRA_APPS:
            fn, helptext = HYDRA_APPS[name]
            return run_hydra(name, fn, list(argv[words:]), helptext, LEGACY_FLAGS.get(name))
    return None


def config_of(command: str) -> str:
    """``conf/<name>.yaml`` of a subcommand (``judge-card`` -> ``judge_card``, ``clauses audit``
    -> ``clauses_audit``)."""
    return command.replace("-", "_").replace(" ", "_")


def add_hydra_parsers(
    subparsers: Any,
    commands: Mapping[str, HydraCommand],
    prefix: str = "",
    legacy: Mapping[str, LegacyFlags] | None = None,
) -> None:
    """One subcommand per Hydra app, listed in the top-level help; :func:`dispatch` runs it (the
    one path: argparse only lists these, it never parses their arguments, which are Hydra's).
    ``prefix``: the words before these subcommands (``"clauses "``); ``legacy``: each command's
    deprecated ``--flags``."""
    for sub, (fn, helptext) in commands.items():
        name = prefix + sub
        HYDRA_APPS[name] = (fn, helptext)
        if legacy and sub in legacy:
            LEGACY_FLAGS[name] = legacy[sub]
        subparsers.add_parser(sub, help=helptext, add_help=False)
