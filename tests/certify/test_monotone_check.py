"""``execution=monotone`` re-asks a sample of the cells the assumption inferred
(``verify_fraction``): it catches non-monotone adjudicators, finds nothing on monotone ones,
is deterministic, stays within the budget, and the summary counts what it found."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import run_certify
from reasonbench.certify.casework import reask_sample
from reasonbench.core.sources import cell_order
from tests.certify.conftest import EXPECTED, config, receipts

TABLE = "python:tests.certify.adjudicators:table_rule"
GRADE = "python:tests.certify.adjudicators:grade"
SOURCES = ("a", "b", "c")
TOP = (1 << len(SOURCES)) - 1


def all_tables() -> list[tuple[str, ...]]:
    """Every table of 3 sources changing fail -> pass: the 2^6 choices of the interior cells."""
    return [
        ("fail", *interior, "pass") for interior in itertools.product(("fail", "pass"), repeat=6)
    ]


def monotone(table: tuple[str, ...]) -> bool:
    """Brute force: no pass below a fail along inclusion."""
    return not any(
        s & t == s and table[s] == "pass" and table[t] == "fail"
        for s in range(TOP + 1)
        for t in range(TOP + 1)
    )


def table_cases(path: Path, tables: list[tuple[str, ...]]) -> Path:
    lines = []
    for i, table in enumerate(tables):
        sources = {
            name: {"old": {"new": False, "table": table}, "new": {"new": True, "table": table}}
            for name in SOURCES
        }
        lines.append(json.dumps({"id": f"t{i:02d}", "sources": sources}) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def run(tmp_path: Path, name: str, **overrides: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    cases = table_cases(tmp_path / "tables.jsonl", all_tables())
    out = tmp_path / name
    values = {"labels": ("fail", "pass"), "execution": "monotone", **overrides}
    run_certify(config(cases, out, TABLE, **values))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return receipts(out), summary


@pytest.fixture
def exact(tmp_path: Path) -> dict[str, Any]:
    return run(tmp_path, "adaptive", execution="adaptive")[0]


def test_without_reasking_wrong_receipts_go_unseen(tmp_path: Path, exact: dict[str, Any]) -> None:
    rows, summary = run(tmp_path, "unchecked", verify_fraction=0.0)
    wrong = [i for i, row in rows.items() if row["receipt"] != exact[i]["receipt"]]
    assert wrong and all(rows[i]["assumption"] == "monotone" for i in wrong)
    assert all(rows[i]["assumption_violation"] is None for i in wrong)
    assert summary["monotone_check"]["cells_reasked"] == 0
    assert summary["monotone_check"]["violations_found_by_reasking"] == 0


def test_reasking_every_inferred_cell_catches_each_non_monotone_table(
    tmp_path: Path, exact: dict[str, Any]
) -> None:
    rows, summary = run(tmp_path, "checked", verify_fraction=1.0)
    tables = all_tables()
    broken = {f"t{i:02d}" for i, table in enumerate(tables) if not monotone(table)}
    assert 0 < len(broken) < len(tables)
    assert {i for i, row in rows.items() if row["assumption_violation"]} == broken
    assert {i: r["receipt"] for i, r in rows.items()} == {i: r["receipt"] for i, r in exact.items()}
    by_search = sum(v["found_by"] == "search" for v in summary["assumption_violations"])
    assert summary["monotone_check"]["violations"] == len(broken)
    assert summary["monotone_check"]["violations_found_by_reasking"] == len(broken) - by_search
    unchecked, _ = run(tmp_path, "unchecked", verify_fraction=0.0)
    wrong = {i for i, row in unchecked.items() if row["receipt"] != exact[i]["receipt"]}
    caught = {v["id"] for v in summary["assumption_violations"] if v["found_by"] == "reasking"}
    assert wrong <= caught  # every receipt the assumption got wrong is caught by re-asking


def test_a_monotone_adjudicator_shows_no_violation(cases_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = run_certify(config(cases_file, out, GRADE, execution="monotone", verify_fraction=1))
    assert {i: (r["status"], r["receipt"] or []) for i, r in receipts(out).items()} == EXPECTED
    assert summary.monotone_check is not None and summary.monotone_check["violations"] == 0
    assert summary.monotone_check["cells_reasked"] > 0
    assert "none contradicted it" in (out / "summary.md").read_text(encoding="utf-8")


def test_the_default_sample_is_deterministic_and_counted(tmp_path: Path) -> None:
    first, summary = run(tmp_path, "one", workers=4)
    second, _ = run(tmp_path, "two", workers=1)
    assert first == second
    same = [(tmp_path / d / "summary.json").read_bytes() for d in ("one", "two")]
    assert same[0] == same[1]
    assert summary["config"]["verify_fraction"] == 0.1
    # one re-asked cell per case that had something to infer and no violation in its search
    inferred = [r for r in first.values() if r["old"] != r["new"]]
    assert 0 < summary["monotone_check"]["cells_reasked"] <= len(inferred)


def test_reasking_stays_within_the_budget(tmp_path: Path) -> None:
    rows, _ = run(tmp_path, "budget", verify_fraction=1.0, budget=3)
    assert all(row["queries"] <= 3 for row in rows.values())
    assert any(row["status"] != "uncertified" for row in rows.values())


def test_the_sample_is_a_seeded_ceiling_share_in_cell_order() -> None:
    sources = ("a", "b", "c", "d", "e")
    inferred = tuple(m for m in cell_order(5) if 0 < m < 31 and m % 3)
    for fraction in (0.0, 0.1, 0.25, 0.5, 1.0):
        chosen = reask_sample(inferred, "c1", sources, fraction, 0)
        assert len(chosen) == math.ceil(round(fraction * len(inferred), 9))
        assert chosen == [m for m in inferred if m in chosen]  # a subset, in cell order
        assert chosen == reask_sample(inferred, "c1", sources, fraction, 0)
    assert len(reask_sample(tuple(range(1, 31)), "c1", sources, 0.1, 0)) == 3  # not 4
    assert len(reask_sample(inferred, "c1", sources, 1.0, 0, room=2)) == 2
    draws = {tuple(reask_sample(inferred, "c1", sources, 0.25, seed)) for seed in range(8)}
    draws |= {tuple(reask_sample(inferred, f"c{i}", sources, 0.25, 0)) for i in range(8)}
    assert len(draws) > 1  # the seed and the case id decide the sample
