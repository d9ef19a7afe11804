"""Every ``reasonbench ...`` command written in README.md and docs/ parses and composes, so the
documentation cannot drift from the CLI (a renamed key or group fails here, not for a reader).
The evaluation harnesses' commands (``lm_eval ...``, ``inspect eval ...``, docs/integrations.md)
parse with the harness's own command line, where that extra is installed."""

from __future__ import annotations

import importlib.util
import re
import shlex
from inspect import signature
from pathlib import Path

import pytest

from reasonbench.cli.config import plugins_of, validate
from reasonbench.cli.hydra_app import HYDRA_APPS, config_of, split_argv
from reasonbench.cli.main import build_parser
from reasonbench.plugins import load_plugins

ROOT = Path(__file__).resolve().parents[2]
# docs/reliability.md shows wrong commands on purpose: tests/cli/test_reliability.py runs them
DOCS = [
    p
    for p in (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
    if p.name != "reliability.md"
]
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.DOTALL)
INLINE = re.compile(r"`(reasonbench [^`]+)`")
COMMAND = re.compile(r"^reasonbench [a-z][a-z-]*(\s|$)")
HARNESS = re.compile(r"^(lm_eval|inspect eval) ")
# a shell's && || ; | between commands, not inside quotes (sh -c 'judge | tail -n 1' is one word):
# what follows it on the line has balanced quotes
SEPARATOR = re.compile(r"""\s*(?:&&|\|\||;|\|)\s*(?=(?:[^'"]|'[^']*'|"[^"]*")*$)""")


def _has_submitit() -> bool:
    try:
        return importlib.util.find_spec("hydra_plugins.hydra_submitit_launcher") is not None
    except ModuleNotFoundError:
        return False


SUBMITIT = _has_submitit()
PARSER = build_parser()  # registers the Hydra subcommands (HYDRA_APPS)


def _lines(text: str, command: re.Pattern[str] = COMMAND) -> list[str]:
    blocks = [b.replace("\\\n", " ") for b in FENCE.findall(text)]
    lines = [line for block in blocks for line in block.splitlines()]
    lines += INLINE.findall(FENCE.sub("", text))
    out = []
    for line in lines:
        line = line.strip().removeprefix("$ ")
        for part in SEPARATOR.split(line):
            part = re.sub(r"^([A-Z_][A-Z0-9_]*=\S*\s+)+", "", part)  # VAR=value before a command
            if command.match(part):  # not a benchmark table row like "reasonbench (bitmask cells)"
                out.append(part)
    return out


def commands(command: re.Pattern[str] = COMMAND) -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for line in _lines(path.read_text(encoding="utf-8"), command):
            line = re.sub(r"\s+#.*$", "", line)  # a trailing comment
            line = re.sub(r"\s*<\s*/dev/null.*$", "", line)
            found.append((path.relative_to(ROOT).as_posix(), line))
    return found


def test_the_docs_hold_commands() -> None:
    assert len(commands()) > 20


@pytest.mark.parametrize(("where", "line"), commands())
def test_documented_command_parses_and_composes(
    where: str, line: str, request: pytest.FixtureRequest
) -> None:
    # a placeholder value (<dir>, <the run's out_dir>) stands for any path: compose with one
    words = shlex.split(re.sub(r"=<[^>]*>", "=/tmp/placeholder", line))[1:]
    if any(w.startswith("$") for w in words) or "..." in words:
        pytest.skip("a shell loop or an elided command, not a literal command")
    # a command of two words ("clauses audit") before one of one word
    size = 2 if " ".join(words[:2]) in HYDRA_APPS else 1
    command = " ".join(words[:size])
    if command in HYDRA_APPS:
        flags, overrides = split_argv(words[size:])
        assert not [f for f in flags if f not in ("-m", "--multirun", "--cfg", "job", "--help")]
        if not SUBMITIT:
            overrides = [
                o for o in overrides if not o.startswith(("hydra/launcher=", "hydra.launcher."))
            ]
        modules, overrides = plugins_of(overrides)
        if modules:  # docs/extending.md names the toy package a test runs (tests/plugin_toys)
            request.getfixturevalue("plugin_toys")
            load_plugins(modules)
        validate(config_of(command), overrides)
    else:
        args = [w for w in words if not (w.startswith("[") or w.endswith("]"))]
        PARSER.parse_args(args)  # SystemExit on a wrong option


def test_the_docs_hold_harness_commands() -> None:
    found = [line.split()[0] for _, line in commands(HARNESS)]
    assert found.count("lm_eval") >= 3 and found.count("inspect") >= 3


@pytest.mark.parametrize(("where", "line"), commands(HARNESS))
def test_documented_harness_command_parses(where: str, line: str) -> None:
    words = shlex.split(line)
    if words[0] == "lm_eval":
        pytest.importorskip("lm_eval", reason="the lm-eval extra")
        from lm_eval._cli import HarnessCLI

        HarnessCLI()._parser.parse_args(["run", *words[1:]])  # SystemExit on a wrong option
        return
    pytest.importorskip("inspect_ai", reason="the inspect extra")
    from inspect_ai._cli.eval import eval_command

    from reasonbench.integrations.inspect import reasonbench

    context = eval_command.make_context("eval", words[2:])  # click: UsageError on a wrong option
    # a path relative to the checkout: inspect_ai 0.3.285 fails on an absolute task file
    task_file = context.params["tasks"][0]
    assert (ROOT / task_file).is_file() and not Path(task_file).is_absolute(), task_file
    keys = {arg.split("=", 1)[0] for arg in context.params["t"]}
    assert keys <= set(signature(reasonbench).parameters), keys  # the task's arguments
