"""End to end on toy strata: exact quotas, clean audit, byte-identical output, atomic writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reasonbench.assembly import SpecError, generate, spec_from_config
from reasonbench.assembly.allocate import QuotaError
from reasonbench.assembly.plan import split_rules
from reasonbench.assembly.spec import BenchmarkSpec
from reasonbench.audit import audit, verify
from reasonbench.strata.toy import ToyStratum


@pytest.fixture
def built(toy_benchmark: Path) -> Path:
    return toy_benchmark


def test_files_and_manifest(built: Path) -> None:
    manifest = json.loads((built / "MANIFEST.json").read_text())
    for split in ("train", "test_locked", "controls_locked", "shift_depth"):
        assert f"{split}.parquet" in manifest["files"]
    assert "hf/dataset_dict.json" in manifest["files"]
    assert (built / "cardinality" / "MANIFEST.json").is_file()
    assert manifest["stats"]["controls"] == 3 * manifest["stats"]["locked_examples"]
    assert "| gold endpoint change |" in (built / "README.md").read_text()


def test_audit_is_clean(built: Path, toy_strata: dict[str, ToyStratum]) -> None:
    result = audit(built, workers=1, progress=False, strata=toy_strata)
    assert result["passed"], result["problems"]
    assert result["controls_reproduced"] == result["controls_checked"] == 240


def test_audit_catches_a_label_error(
    built: Path, toy_strata: dict[str, ToyStratum], tmp_path: Path
) -> None:
    import shutil

    import pyarrow.parquet as pq

    from reasonbench.assembly.write import table_of

    copy = tmp_path / "rb"
    shutil.copytree(built, copy)
    rows = pq.read_table(copy / "dev.parquet").to_pylist()
    rows[0]["new_verdict"] = "refer" if rows[0]["new_verdict"] != "refer" else "approve"
    pq.write_table(table_of(rows), copy / "dev.parquet")
    result = audit(copy, workers=1, progress=False, strata=toy_strata)
    assert not result["passed"] and result["counts"]["label_errors"] >= 1
    assert any("new_verdict" in p for p in result["problems"]["label_errors"])
    problems = verify(copy, built / "MANIFEST.json", exclude=("cardinality/",))
    assert problems == ["mismatch: dev.parquet" + problems[0].removeprefix("mismatch: dev.parquet")]


def test_same_bytes_for_any_worker_count(
    built: Path, toy_spec: BenchmarkSpec, toy_strata: dict[str, Any], tmp_path: Path
) -> None:
    other = tmp_path / "rb2"
    generate(toy_spec, other, workers=2, progress=False, strata=toy_strata)
    assert verify(other, built / "MANIFEST.json", exclude=("cardinality/",)) == []
    assert verify(other / "cardinality", built / "cardinality" / "MANIFEST.json") == []


def test_same_bytes_under_another_hashseed(built: Path, tmp_path: Path) -> None:
    script = (
        "import sys; sys.path.insert(0, '.');"
        "from pathlib import Path;"
        "from tests.assembly.conftest import small_config;"
        "from reasonbench.strata.toy import ToyStratum;"
        "from reasonbench.assembly import generate, spec_from_config;"
        "generate(spec_from_config(small_config()), Path(sys.argv[1]), progress=False,"
        " strata={'organizational': ToyStratum('organizational', 20), 'logical': ToyStratum('logical', 40, True)})"
    )
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "rb3"
    env = {"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", script, str(out)], cwd=root, env=env, check=True)
    assert verify(out, built / "MANIFEST.json", exclude=("cardinality/",)) == []


def test_impossible_quota_fails_fast_and_writes_nothing(
    toy_config: dict[str, Any], tmp_path: Path
) -> None:
    toy_config["quotas"]["ambiguous"] = toy_config["quotas"]["changed"] + 1
    with pytest.raises(SpecError, match="impossible quota: quotas.ambiguous"):
        spec_from_config(toy_config)
    assert not any(tmp_path.iterdir())


def test_unreachable_quota_names_the_cell(
    toy_config: dict[str, Any], toy_strata: dict[str, Any], tmp_path: Path
) -> None:
    toy_config["quotas"]["changed"] = toy_config["quotas"]["ambiguous"] = (
        480  # nearly all ambiguous
    )
    out = tmp_path / "rb"
    with pytest.raises(QuotaError, match="ambiguous"):
        generate(spec_from_config(toy_config), out, progress=False, strata=toy_strata)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == []


def test_interrupted_write_keeps_previous_data(
    built: Path, toy_spec: BenchmarkSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from reasonbench.assembly import generation as generate_module

    copy = tmp_path / "rb"
    shutil.copytree(built, copy)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(generate_module, "replace_directory", crash)
    strata = {
        "organizational": ToyStratum("organizational", 20),
        "logical": ToyStratum("logical", 40, True),
    }
    with pytest.raises(KeyboardInterrupt):
        generate_module.generate(toy_spec, copy, progress=False, strata=strata)
    assert verify(copy, built / "MANIFEST.json", exclude=("cardinality/",)) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rb"]  # no staging left behind


def test_held_out_family_must_leave_two_training_families(toy_spec: BenchmarkSpec) -> None:
    """Held-out families live only in conf/benchmark; the plan checks them against the stratum."""
    stratum = ToyStratum("organizational", 20)
    rules = split_rules(toy_spec, "organizational", stratum, "train")
    held = toy_spec.shifts.held_out_family["organizational"]
    assert held not in rules.families and set(rules.families) | {held} == set(
        stratum.template_families
    )
    stratum.template_families = ("plain", "held")  # one wording left to train on
    with pytest.raises(SpecError, match="at least two template families must stay in training"):
        split_rules(toy_spec, "organizational", stratum, "train")
