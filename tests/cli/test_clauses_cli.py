"""``reasonbench clauses audit``: the clause-set audit as a command (text and JSON, exit codes,
the deprecated ``--data`` flag)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from reasonbench.cli.main import main
from reasonbench.strata.organizational.loader import DATA_DIR


def cli(argv: list[str]) -> int:
    return main(argv)


def test_audit_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["clauses", "audit"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 46
    assert all(line.startswith("PASS org-") for line in out[:45])
    assert "labels=approve,deny,refer" in out[0]
    assert out[-1] == "45 clauses: 45 passed, 0 failed; template families: memo, handbook, legal"


def test_audit_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["clauses", "audit", "json=true"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == {
        "clauses": 45,
        "passed": 45,
        "failed": [],
        "template_families": ["memo", "handbook", "legal"],
    }
    assert all(c["ok"] and c["problems"] == [] for c in report["clauses"])


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "clauses"
    shutil.copytree(DATA_DIR, target)
    return target


def test_failing_audit_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_data(tmp_path)
    path = root / "templates.yaml"
    data = yaml.safe_load(path.read_text())
    data["families"]["memo"]["pred_gt"] = "{label} is large"  # drops the threshold
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert cli(["clauses", "audit", f"clauses_dir={root}"]) == 1
    out = capsys.readouterr().out
    assert (
        "FAIL org-expenses-meals" in out and "memo: rule item 1: value '60 days' not stated" in out
    )
    assert out.splitlines()[-1].startswith("45 clauses: 15 passed, 30 failed")


def test_unloadable_data_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_data(tmp_path)
    path = root / "leave.yaml"
    path.write_text(path.read_text().replace("field: notice,", "field: notise,", 1))
    assert cli(["clauses", "audit", "--data", str(root)]) == 2  # deprecated, still read
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "clause 'org-leave-annual'" in captured.err and "unknown field 'notise'" in captured.err


def test_bare_clauses_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["clauses"]) == 2
    assert "audit" in capsys.readouterr().out
