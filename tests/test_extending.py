"""docs/extending.md's recipes, each run for real: a toy stratum, target, control kind and judge
are registered at run time and go through the pipeline, nothing else edited."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from reasonbench.assembly import generate, spec_from_config
from reasonbench.audit import audit
from reasonbench.cli.benchmarks import with_stratum
from reasonbench.cli.main import main
from reasonbench.controls import (
    CONTROL_KINDS,
    BuiltControl,
    ControlKind,
    identical,
    identical_cells,
    inverse_cells,
    inverse_cube,
)
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.io import read_split
from reasonbench.strata.base import Stratum, Transition
from reasonbench.strata.registry import STRATA
from reasonbench.strata.toy import ToyStratum
from reasonbench.targets import TARGETS, gold_text, parse_target
from tests.assembly.conftest import small_config


def toy_config(kinds: tuple[str, ...] = ("inverse", "permutation", "distractor")) -> Any:
    """benchmark=small with one stratum, ``toy``, in the organizational stratum's place (as
    rb_toys/stratum.py offers it from outside the repo)."""
    data = with_stratum(
        small_config(), "toy", like="organizational", held_out_operators=["n_exempt"],
        held_out_family="held",
    )  # fmt: skip
    data["quotas"]["changed"], data["quotas"]["ambiguous"] = 60, 8
    data["controls"]["kinds"] = list(kinds)
    data["cardinality"]["train"]["cases"] = data["cardinality"]["test"]["cases"] = 10
    return data


@pytest.fixture
def toy_stratum() -> Iterator[None]:
    STRATA.register("toy", lambda: ToyStratum("toy", 20))
    yield
    STRATA.unregister("toy")


def test_a_new_stratum_generates_and_audits(toy_stratum: None, tmp_path: Path) -> None:
    spec = spec_from_config(toy_config())
    generate(spec, tmp_path / "rb", workers=1, progress=False)  # strata from the registry
    result = audit(tmp_path / "rb", workers=1, progress=False)
    assert result["passed"], result["problems"]
    rows = read_split(tmp_path / "rb", "test_locked", ["stratum"])
    assert rows and {r["stratum"] for r in rows} == {"toy"}


def test_a_new_target_serializes_parses_and_trains(
    small_bench: Path, tiny_cache: Path, tmp_path: Path
) -> None:
    """The recipe's target, rb_toys/target.py (the user's package, on the path for this test)."""
    import importlib

    from tests.cli.conftest import toys_on_path
    from tests.train.helpers import composed, tiny_overrides

    with toys_on_path():
        importlib.import_module("rb_toys.target")  # registers verdict_flag
        rows = read_split(small_bench, "train")[:50]
        texts = [gold_text("verdict_flag", r) for r in rows]  # not stored: serialized from gold
        assert all(
            parse_target("verdict_flag", t, frozenset({"approve", "deny", "refer", "holds",
                         "fails"})).new == r["new_verdict"]  # type: ignore[union-attr]
            for t, r in zip(texts, rows, strict=True)
        )  # fmt: skip
        from reasonbench.train import train

        overrides = tiny_overrides(
            small_bench, tiny_cache, f"out_dir={tmp_path / 'run'}", "optim.max_steps=1"
        )
        cfg = composed("train", [*overrides, "target=cube"])
        cfg.target.name = "verdict_flag"  # a registered target without a conf/target file
        summary = train(cfg)
        assert summary["finished"] and summary["steps"] == 1 and summary["target"] == "verdict_flag"
    assert "verdict_flag" not in TARGETS


def _echo(
    strat: Stratum, t: Transition, cube: Cube, receipt: Receipt, order: tuple[str, ...],
    rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    return BuiltControl(t, cube, receipt, tuple(reversed(order)))


def test_a_new_control_kind_builds_and_audits(toy_stratum: None, tmp_path: Path) -> None:
    CONTROL_KINDS.register(
        "echo", ControlKind("echo", "echo", "echo", _echo, identical, description="toy")
    )
    try:
        spec = spec_from_config(toy_config(("inverse", "echo")))
        generate(spec, tmp_path / "rb", workers=1, progress=False)
        result = audit(tmp_path / "rb", workers=1, progress=False)
        assert result["passed"], result["problems"]
        controls = read_split(tmp_path / "rb", "controls_locked", ["id", "control"])
        assert {c["control"] for c in controls} == {"inverse", "echo"}
        assert all(c["id"].endswith("-echo") for c in controls if c["control"] == "echo")
    finally:
        CONTROL_KINDS.unregister("echo")


def test_a_control_kind_whose_cube_is_not_the_parents_needs_cells(
    toy_stratum: None, tmp_path: Path
) -> None:
    """Why ``cells`` is required unless the relation is ``identical``: ``generate`` never reads
    it, ``audit`` holds every gold pair to it. The inverse as a user's kind, with the identical
    cells (before, the silent default) fails the audit on every parent whose cube is not its own
    complement re-indexing — every change, and a stable cube with inner cells of another label."""
    inverse = CONTROL_KINDS.get("inverse")
    flip = ControlKind("flip", "flip", "flip", inverse.build, inverse.relation, inverse.audit,
                       cells=identical_cells)  # fmt: skip
    CONTROL_KINDS.register("flip", flip)
    try:
        generate(spec_from_config(toy_config(("flip",))), tmp_path / "rb", workers=1,
                 progress=False)  # fmt: skip
        result = audit(tmp_path / "rb", workers=1, progress=False)
        parents = {r["id"]: r for r in read_split(tmp_path / "rb", "test_locked", ["id", "cube"])}
        asymmetric = sorted(
            f"{pid}-flip: gold violates the flip cell relation"
            for pid, r in parents.items()
            if inverse_cube(cube := Cube.from_cells(json.loads(r["cube"]))) != cube
        )
        assert asymmetric and sorted(result["problems"]["controls"]) == asymmetric
        CONTROL_KINDS.unregister("flip")
        CONTROL_KINDS.register("flip", replace(flip, cells=inverse_cells))
        assert audit(tmp_path / "rb", workers=1, progress=False)["passed"]
    finally:
        CONTROL_KINDS.unregister("flip")


def test_a_users_judge_gets_a_judge_card(
    small_bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "card"
    argv = [
        "judge-card", "judge=custom", "judge.factory=tests.toys.judge:build",
        "judge.name=always-approve", "judge.args.verdict=approve", f"data_dir={small_bench}",
        f"out_dir={out}", "max_items=6", "replicates=50", "controls=false",
    ]  # fmt: skip
    assert main(argv) == 0
    card = json.loads((out / "judge_card.json").read_text())
    assert card["judge"]["name"] == "always-approve"
    assert card["judge"]["factory"] == "tests.toys.judge:build"
