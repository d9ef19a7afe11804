"""The statistics of a build come from its strata: a third stratum the paper does not have is
counted in the locked units and by its own unit count, in the manifest and the dataset card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reasonbench.assembly import generate, spec_from_config
from reasonbench.assembly.spec import SPLITS
from reasonbench.io import read_split
from reasonbench.strata.registry import STRATA
from reasonbench.strata.toy import ToyStratum
from tests.assembly.conftest import small_config
from tests.conftest import toy_strata


class CaseStratum(ToyStratum):
    """The toy stratum, declaring what its units are called (``SupportsUnitLabel``)."""

    unit_label = "cases"


def three_strata_config() -> dict[str, Any]:
    """benchmark=small plus a third stratum, ``toy``, in every split but shift_depth."""
    data = small_config()
    data["strata"] = ["organizational", "logical", "toy"]
    sizes = {"train": (3, 30), "test_locked": (3, 20), "shift_depth": (0, 0)}
    for name, split in data["splits"].items():
        units, cases = sizes.get(name, (1, 10))
        split["toy"] = {"units": units, "cases": cases}
    data["quotas"]["changed"] += 50
    data["quotas"]["ambiguous"] += 15
    data["quotas"]["ambiguity_weight"]["toy"] = 1.0
    data["shifts"]["held_out_operators"]["toy"] = ["n_exempt"]
    data["shifts"]["held_out_family"]["toy"] = "held"
    data["cardinality"]["train"]["cases"] = data["cardinality"]["test"]["cases"] = 10
    return data


@pytest.fixture(scope="module")
def three_strata(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    STRATA.register("toy", CaseStratum)  # the spec accepts registered strata only
    try:
        out = tmp_path_factory.mktemp("three") / "rb"
        strata = {**toy_strata(), "toy": CaseStratum("toy", 12)}
        generate(spec_from_config(three_strata_config()), out, progress=False, strata=strata)
        yield out
    finally:
        STRATA.unregister("toy")


def _units(rows: list[dict[str, Any]], stratum: str) -> int:
    return len({r["unit_id"] for r in rows if r["stratum"] == stratum})


def test_a_third_strata_units_are_counted(three_strata: Path) -> None:
    stats = json.loads((three_strata / "MANIFEST.json").read_text("utf-8"))["stats"]
    locked = read_split(three_strata, "test_locked", ["unit_id", "stratum"])
    per_stratum = [_units(locked, s) for s in ("organizational", "logical", "toy")]
    assert per_stratum[2] == 3
    assert stats["locked_units"] == f"{sum(per_stratum)} ({' + '.join(map(str, per_stratum))})"
    # each stratum's units under its declared label ("units" where it declares none), over
    # every main split: the toy's 3 + 1 + 1 + 3 + 1 + 1 units of three_strata_config
    main = [r for split in SPLITS for r in read_split(three_strata, split, ["unit_id", "stratum"])]
    assert stats["toy_cases"] == _units(main, "toy") == 10
    assert stats["organizational_units"] == _units(main, "organizational") > 0
    assert stats["logical_units"] == _units(main, "logical") > 0
    assert "organizational_clauses" not in stats and "logical_worlds" not in stats
    card = (three_strata / "README.md").read_text("utf-8")
    row = f"| locked test units (organizational + logical + toy) | {stats['locked_units']} |"
    assert row in card
