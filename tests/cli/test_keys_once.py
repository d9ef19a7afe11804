"""Every key declared once (issue 42 §1): where a command's keys are a library's settings, the
command's schema is derived from them (reasonbench/cli/keys.py ``derived``), so a key's default,
type and help live in one place; a judge's YAML names only what its factory cannot know, and any
value that differs from the factory's default says why on its line.

Copies that disagree were bugs: ``dtype`` bf16 in the judge YAMLs and fp32 in the factories,
temperature 0.7 in the YAML and 1.0 in ``Decoding``, the certify, PIS, TF-IDF and Judge Card keys
written twice, ``replicates`` in five places."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from reasonbench.cli.schemas import JUDGE_ARGS, SCHEMAS
from reasonbench.judges.base import JUDGES

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "reasonbench"


def schema_helps(schema: type) -> list[str]:
    """Every key's help in a schema, its sections' included."""
    out = []
    for f in dataclasses.fields(schema):
        if f.metadata.get("help"):
            out.append(str(f.metadata["help"]))
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else None
        if dataclasses.is_dataclass(default):
            out += schema_helps(type(default))
    return out


def package_strings() -> Counter[str]:
    """Every string constant of the package's source (implicit concatenations joined)."""
    found: Counter[str] = Counter()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found[node.value] += 1
    return found


def test_no_help_is_written_twice() -> None:
    strings = package_strings()
    for name in SCHEMAS.names():
        for text in schema_helps(SCHEMAS.get(name)):
            assert strings[text] <= 1, f"{name}: help {text!r} is written {strings[text]} times"


def field_defaults(source: type) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(source):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
    return out


def cli(value: Any) -> Any:
    """A library value as the command line holds it."""
    if isinstance(value, tuple):
        return [cli(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "value") and not isinstance(value, int | float | str):
        return value.value  # an Enum member
    return value


def test_the_commands_keys_are_the_librarys_settings() -> None:
    from reasonbench.analysis.analyze import REPLICATES, analyze
    from reasonbench.baselines.tfidf import tfidf_predictions
    from reasonbench.certify import CertifyConfig
    from reasonbench.invariance.report import PisConfig
    from reasonbench.judge_card import CardSettings

    certify = field_defaults(SCHEMAS.get("certify"))
    for name, value in field_defaults(CertifyConfig).items():
        assert cli(certify[name]) == cli(value), f"certify.{name}"
    card = field_defaults(SCHEMAS.get("judge_card"))
    for name, value in field_defaults(CardSettings).items():
        if name != "pis":
            assert cli(card[name]) == cli(value), f"judge-card {name}"
    for name, value in field_defaults(PisConfig).items():
        assert cli(getattr(card["pis"], name)) == cli(value), f"pis.{name}"
    tfidf = field_defaults(SCHEMAS.get("baselines"))["tfidf"]
    signature = inspect.signature(tfidf_predictions).parameters
    for f in dataclasses.fields(tfidf):
        assert cli(getattr(tfidf, f.name)) == cli(signature[f.name].default), f"tfidf.{f.name}"
    assert field_defaults(SCHEMAS.get("analyze"))["replicates"] == REPLICATES
    assert inspect.signature(analyze).parameters["replicates"].default == REPLICATES


def test_every_built_in_judge_factory_types_its_arguments_from_its_signature() -> None:
    factories = {str(yaml.safe_load(p.read_text())["factory"]) for p in judge_yamls()}
    for factory in sorted(factories - {"???"}):
        assert factory in JUDGE_ARGS, f"judge factory {factory} has no JUDGE_ARGS schema"
        build = JUDGES.get(factory)
        params = inspect.signature(build).parameters
        schema = {f.name for f in dataclasses.fields(JUDGE_ARGS.get(factory)())}
        own = {n for n, p in params.items() if n != "name" and p.kind is p.POSITIONAL_OR_KEYWORD}
        assert own <= schema, f"{factory}: {sorted(own - schema)} untyped"


def judge_yamls() -> list[Path]:
    return sorted((ROOT / "conf" / "judge").glob("*.yaml"))


ARG_LINE = re.compile(r"^  (\w+):(.*)$")


@pytest.mark.parametrize("path", judge_yamls(), ids=lambda p: p.name)
def test_a_judge_yaml_names_only_what_its_factory_cannot_know(path: Path) -> None:
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    factory = str(config["factory"])
    if factory == "???":
        return  # custom: the user's own factory
    params = inspect.signature(JUDGES.get(factory)).parameters
    if factory == "tiny_zero_shot":  # passes the rest to hf_zero_shot
        params = {**inspect.signature(JUDGES.get("hf_zero_shot")).parameters, **params}
    comments = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = ARG_LINE.match(line)
        if match:
            comments[match.group(1)] = "#" in match.group(2)
    for name, value in (config.get("args") or {}).items():
        if value == "???":
            continue  # the user must give it
        assert name in params, f"{path.name}: {name} is not an argument of {factory}"
        default = params[name].default
        if default is inspect.Parameter.empty:
            continue  # a required argument: what the factory cannot know
        assert value != cli(default), f"{path.name}: {name}={value!r} repeats {factory}'s default"
        assert comments.get(name), f"{path.name}: {name} overrides {factory}'s default: say why"


def literal_defaults(value: str) -> list[str]:
    """Where a parameter or field of the package has the literal default ``value``."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            defaults: list[ast.expr | None] = []
            if isinstance(node, ast.FunctionDef):
                defaults = [*node.args.defaults, *node.args.kw_defaults]
            elif isinstance(node, ast.AnnAssign | ast.Assign):
                defaults = [node.value]
            for d in defaults:
                if isinstance(d, ast.Constant) and d.value == value:
                    found.append(f"{path.relative_to(ROOT)}:{d.lineno}")
    return found


@pytest.mark.parametrize("value", ["portable", "data/cache/tiny"])
def test_shared_defaults_are_one_constant(value: str) -> None:
    # the kernels every model command and judge runs, and where the tiny base is built: once
    assert len(literal_defaults(value)) == 1, literal_defaults(value)
