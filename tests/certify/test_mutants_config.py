"""``CertifyConfig.validate``, observed as a user meets it: each bad certify setting is refused
with one exact line naming the key (docs/certify.md lists the keys, docs/reliability.md the
style of the messages), and each check's boundary is where the docs put it: ``budget=0`` and
``verify_fraction`` 0 and 1 are accepted, ``budget=-1`` is not; a label must be a non-empty
string; ``sources`` declares 1 to 16 sources, both ends included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import CertifyConfig, ConfigError
from reasonbench.certify.config import MAX_SOURCES
from tests.certify.conftest import config

GRADE = "python:tests.certify.adjudicators:grade"


def settings(**overrides: Any) -> CertifyConfig:
    """A config of the essay grader with ``overrides``; validate() reads no file, so the paths
    need not exist."""
    return config(Path("cases.jsonl"), Path("out"), GRADE, **overrides)


def refusal(**overrides: Any) -> str:
    """The message ``validate`` refuses ``overrides`` with."""
    with pytest.raises(ConfigError) as info:
        settings(**overrides).validate()
    return str(info.value)


def names(count: int) -> tuple[str, ...]:
    return tuple(f"s{i}" for i in range(count))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        # an empty label: a string, but not a usable verdict
        ({"labels": ("pass", "")}, "labels=['pass', '']: declare at least two non-empty labels"),
        # a label that is not a string (a number Hydra would have parsed) is refused too
        ({"labels": ("pass", 1)}, "labels=['pass', 1]: declare at least two non-empty labels"),
        ({"order": ("fail", "pass", "refer")}, "order is only used by execution=monotone"),
        # a malformed order is refused with the order checker's own reason, after "order: "
        (
            {"execution": "monotone", "order": ("fail", "fail")},
            "order: a verdict order must not repeat a label, got ['fail', 'fail']",
        ),
        (
            {"execution": "exhaustive", "budget": 5},
            "budget applies to execution=adaptive or monotone, not exhaustive",
        ),
        ({"budget": -1}, "budget=-1: must be >= 0 (or null for no budget)"),
        ({"verify_seed": 1.5}, "verify_seed=1.5: must be an integer"),
        ({"verify_seed": "7"}, "verify_seed='7': must be an integer"),
        ({"sources": ()}, f"sources: declare 1..{MAX_SOURCES} sources"),
        ({"sources": names(MAX_SOURCES + 1)}, f"sources: declare 1..{MAX_SOURCES} sources"),
    ],
)
def test_a_bad_setting_is_one_exact_line_naming_the_key(
    overrides: dict[str, Any], message: str
) -> None:
    """The whole message, not a fragment of it: it is what the CLI prints after ``error:``."""
    assert refusal(**overrides) == message


@pytest.mark.parametrize(
    "overrides",
    [
        {"budget": 0},  # no interior query at all: legal, every changed case is then uncertified
        {"budget": 1},
        {"execution": "monotone", "budget": 0},
        {"verify_fraction": 0},
        {"verify_fraction": 1},
        {"sources": ("score",)},  # a single source: the smallest version change
        {"sources": ("score", "rubric")},
        {"sources": names(MAX_SOURCES)},  # the documented maximum itself
        {"execution": "monotone", "order": ("fail", "refer", "pass")},
        {"repeats": 1, "workers": 1},
    ],
)
def test_settings_at_the_limits_are_accepted(overrides: dict[str, Any]) -> None:
    """validate() returns the config itself when nothing is wrong with it."""
    checked = settings(**overrides)
    assert checked.validate() is checked
