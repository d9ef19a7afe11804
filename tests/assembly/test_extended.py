"""The optional agentic stratum through assembly and audit (benchmark=small_extended).

Real strata, so it takes seconds: one build shared by the module.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from omegaconf import OmegaConf

from reasonbench.assembly import generate, spec_from_config
from reasonbench.assembly.spec import SpecError
from reasonbench.audit import audit, margins, reexecute, write_audit
from reasonbench.cli.config import compose
from reasonbench.strata.agentic import AgenticStratum

CONF = Path(__file__).resolve().parents[2] / "conf"


def _config(name: str) -> dict[str, Any]:
    cfg = compose("generate", overrides=[f"benchmark={name}"])
    data: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
    return dict(data)


@pytest.fixture(scope="module")
def extended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("extended") / "rb"
    generate(spec_from_config(_config("small_extended")), out, workers=2, progress=False)
    return out


def test_paper_is_unchanged_by_the_optional_stratum() -> None:
    paper = _config("paper")
    assert paper["strata"] == ["organizational", "logical"]
    assert "quarantine" not in paper["controls"]["kinds"]
    full = spec_from_config(_config("extended"))
    assert full.strata == ("organizational", "logical", "agentic")


def test_card_carries_the_agentic_note_only_where_the_stratum_is(
    extended: Path, small_bench: Path
) -> None:
    from reasonbench.strata.agentic.stratum import CARD_NOTE

    assert CARD_NOTE in (extended / "README.md").read_text("utf-8")
    assert "denominator of ρ" not in (small_bench / "README.md").read_text("utf-8")


def test_agentic_cases_and_quarantine_controls(extended: Path) -> None:
    locked = pq.read_table(extended / "test_locked.parquet").to_pylist()
    controls = pq.read_table(extended / "controls_locked.parquet").to_pylist()
    agentic = {r["id"] for r in locked if r["stratum"] == "agentic"}
    assert len(agentic) == 20
    quarantined = [c for c in controls if c["control"] == "quarantine"]
    # exactly one per agentic parent, none for the strata without an untrusted channel
    assert sorted(c["parent_id"] for c in quarantined) == sorted(agentic)
    parents = {r["id"]: r for r in locked}
    for control in quarantined:
        parent = parents[control["parent_id"]]
        assert control["cube"] == parent["cube"] and control["receipt"] == parent["receipt"]
        assert control["old_state"] != parent["old_state"]  # the planted text is really there
    train = pq.read_table(extended / "train.parquet").to_pylist()
    assert all(r["proof_depth"] is None for r in train if r["stratum"] == "agentic")
    assert any(json.loads(r["receipt"]) for r in train if r["stratum"] == "agentic")


@pytest.fixture(scope="module")
def audited(extended: Path) -> dict[str, Any]:
    return audit(extended, workers=1, progress=False)


def test_extended_audits_clean(audited: dict[str, Any]) -> None:
    result = audited
    assert result["passed"], result["counts"]
    assert result["controls_checked"] == result["controls_reproduced"] == 320


def test_audit_reports_the_smallest_threshold_margins(
    audited: dict[str, Any], extended: Path, tmp_path: Path
) -> None:
    report = audited["margins"]
    agentic = sum(
        r["stratum"] == "agentic"
        for p in sorted(extended.rglob("*.parquet"))
        for r in pq.read_table(p).to_pylist()
    )
    assert report["records"] == agentic and report["cells"] == 8 * agentic
    assert report["violations"] == audited["counts"]["margins"] == 0
    assert {"gamma", "rho", "rho_total"} <= set(report["smallest"])
    for name, entry in report["smallest"].items():
        assert entry["margin"] >= entry["delta"], name
        assert entry["where"].startswith("agentic-") and "cell {" in entry["where"]
    write_audit(audited, tmp_path)
    assert "## Threshold margins" in (tmp_path / "AUDIT.md").read_text(encoding="utf-8")


def test_audit_flags_a_cell_on_its_threshold(extended: Path) -> None:
    """Move one stored state's gamma_min onto its own Gamma_A: the verdict is unchanged (a
    tie with the threshold does not fire O1) but the cell no longer keeps its margin."""
    stratum = AgenticStratum()
    reexecute.install({"agentic": stratum})
    rows = pq.read_table(extended / "test_locked.parquet").to_pylist()
    for record in (r for r in rows if r["stratum"] == "agentic"):
        old = json.loads(record["old_state"])
        adjudicator = stratum.adjudicator(json.loads(record["context"]))
        gamma = adjudicator.decision(stratum.state_from_json(old)).solution.gamma
        if 0.001 <= gamma < float("inf"):
            break
    old["authority"]["oversight"]["gamma_min"] = gamma
    tampered = {**record, "old_state": json.dumps(old)}
    assert not margins.chunk_margins([record]).problems
    problems = margins.chunk_margins([tampered]).problems
    assert problems and all("gamma" in p for p in problems)
    assert problems[0].startswith(f"{record['id']} cell {{}}")


def test_audit_catches_a_missing_quarantine_control(extended: Path, tmp_path: Path) -> None:
    copy = tmp_path / "rb"
    shutil.copytree(extended, copy)
    path = copy / "controls_locked.parquet"
    rows = [r for r in pq.read_table(path).to_pylist() if r["control"] != "quarantine"]
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path)), path)
    result = audit(copy, workers=1, progress=False)
    assert not result["passed"]
    assert result["counts"]["controls"] == 20  # "0 quarantine controls (expected 1)" per parent


def test_unknown_control_is_refused() -> None:
    data = _config("small_extended")
    data["controls"]["kinds"] = [*data["controls"]["kinds"], "mirror"]
    with pytest.raises(SpecError, match="unknown control 'mirror'"):
        spec_from_config(data)
