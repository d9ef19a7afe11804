"""Every key is declared once (its dataclass in reasonbench/cli/schemas.py: type, default, help),
and a command line is composed once."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import hydra
import pytest
from omegaconf import OmegaConf

from reasonbench.cli import config
from reasonbench.cli.config import compose, key_help
from reasonbench.cli.keys import defaults_node, help_of
from reasonbench.cli.schemas import SCHEMAS

CONF = Path(__file__).resolve().parents[2] / "conf"
COMMANDS = sorted(p.stem for p in CONF.glob("*.yaml"))


def test_every_command_has_a_schema() -> None:
    assert sorted(SCHEMAS) == COMMANDS


@pytest.mark.parametrize("name", COMMANDS)
def test_a_command_yaml_declares_no_key(name: str) -> None:
    """The YAML keeps the defaults list and Hydra's settings: its keys are the schema's."""
    raw = OmegaConf.load(CONF / f"{name}.yaml")
    assert set(raw.keys()) <= {"defaults", "hydra"}
    assert f"{name}_keys" in [d for d in raw.defaults if isinstance(d, str)]


@pytest.mark.parametrize("name", COMMANDS)
def test_the_composed_keys_are_the_schemas_fields_in_order(name: str) -> None:
    schema = SCHEMAS.get(name)
    cfg = compose(name)
    assert list(cfg.keys()) == [f.name for f in dataclasses.fields(schema)]
    own: Any = OmegaConf.to_container(cfg, resolve=False)
    assert {k: own[k] for k in defaults_node(schema)} == defaults_node(schema)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_key_in_help_says_what_it_does(name: str) -> None:
    rows = key_help(name)
    assert rows and all(text for _, _, text in rows), [k for k, _, t in rows if not t]


def test_help_of_a_section_key_a_group_key_and_a_free_entry() -> None:
    judge_card = SCHEMAS.get("judge_card")
    assert help_of(judge_card, "pis.w2") == "weight of 1 - R_dir"
    assert help_of(judge_card, "judge.factory") is not None
    assert help_of(judge_card, "nope") is None
    assert help_of(SCHEMAS.get("analyze"), "methods.cube") is None  # a role: the YAML's comment
    rows = dict((k, t) for k, _, t in key_help("analyze"))
    assert rows["methods.cube"] == "primary arm a"


def _count_compositions(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    real = hydra.compose

    def counted(config_name: str, overrides: list[str], **kwargs: Any) -> Any:
        calls.append(list(overrides))
        return real(config_name, overrides=overrides, **kwargs)

    config._composed.cache_clear()
    monkeypatch.setattr(hydra, "compose", counted)
    return calls


def test_a_command_line_is_composed_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reasonbench.cli.main import main

    cube = tmp_path / "cube.json"
    cube.write_text(json.dumps({"sources": ["G"], "cells": {"": "deny", "G": "approve"}}))
    calls = _count_compositions(monkeypatch)
    assert main(["receipt", f"cube={cube}"]) == 0
    assert len(calls) == 1
    assert "G" in capsys.readouterr().out


def test_an_unknown_key_still_names_the_closest_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from reasonbench.cli.main import main

    calls = _count_compositions(monkeypatch)
    assert main(["receipt", "cueb=x.json"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "reasonbench receipt: error: unknown key 'cueb'; did you mean 'cube'? "
        "(reasonbench receipt --help lists the keys), in the command line"
    ]
    assert len(calls) == 2  # the failed line, then the bare config the closest key comes from


def test_a_wrong_type_is_the_line_docs_configuration_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/configuration.md shows this line."""
    from reasonbench.cli.main import main

    assert main(["train", "threads=two"]) == 2
    line = capsys.readouterr().err.strip()
    page = (CONF.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert (
        line
        == "reasonbench train: error: threads must be an integer, got 'two', in the command line"
    )
    assert f"```text\n{line}\n```" in page


def _hydra_commands() -> list[str]:
    from reasonbench.cli.hydra_app import HYDRA_APPS
    from reasonbench.cli.main import build_parser

    build_parser()  # registers every Hydra subcommand
    return sorted(HYDRA_APPS)


@pytest.mark.parametrize("command", _hydra_commands())
def test_cfg_job_prints_what_hydra_prints_from_one_composition(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--cfg job`` is answered from the one composition; ``--package _global_`` (the same
    config) still goes through ``@hydra.main``, whose print must be the same text."""
    from reasonbench.cli.main import main

    calls = _count_compositions(monkeypatch)
    assert main([command, "--cfg", "job"]) == 0
    ours = capsys.readouterr().out
    assert len(calls) == 1
    assert main([command, "--package", "_global_", "--cfg", "job"]) == 0
    assert capsys.readouterr().out == ours
    assert ours.strip()
