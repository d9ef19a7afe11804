"""``reasonbench certify``: the Hydra front end over run_certify, with one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.cli.main import main

GRADE = "python:tests.certify.adjudicators:grade"
LABELS = "labels=[fail,pass,refer]"


def test_certify_command_writes_receipts(
    cases_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["certify", f"cases={cases_file}", f"adjudicator={GRADE}", LABELS, f"out_dir={out}"]
    assert main([*argv, "progress=false"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("certified 6 case(s): ") and str(out) in said
    rows = [json.loads(line) for line in (out / "receipts.jsonl").read_text().splitlines()]
    assert {r["id"]: r["status"] for r in rows}["either"] == "ambiguous"
    assert main([*argv, "progress=false", "execution=exhaustive"]) == 0  # ours: replaced


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "set cases=... (docs/certify.md), in the command line"),
        (["cases=/nonexistent.jsonl", f"adjudicator={GRADE}", LABELS], "/nonexistent.jsonl"),
        (["cases=CASES", "adjudicator=judge:x", LABELS], "unknown adjudicator kind 'judge'"),
        (["cases=x", f"adjudicator={GRADE}", "labels=[pass]"], "declare at least two"),
        (["cases=x", f"adjudicator={GRADE}", LABELS, "repeats=many"], "repeats must be an integer"),
        (
            ["cases=x", f"adjudicator={GRADE}", LABELS, "exection=monotone"],
            "did you mean 'execution'",
        ),
    ],
)
def test_certify_errors_are_one_line(
    extra: list[str], message: str, cases_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["certify", *(e.replace("CASES", str(cases_file)) for e in extra)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("reasonbench certify: error: ") and "\n" not in err, err
    assert message in err


def test_certify_never_replaces_a_users_file(
    cases_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.md").write_text("my notes\n")
    argv = ["certify", f"cases={cases_file}", f"adjudicator={GRADE}", LABELS, f"out_dir={out}"]
    assert main(argv) == 2
    assert "summary.md exists and was not written by reasonbench" in capsys.readouterr().err
    assert (out / "summary.md").read_text() == "my notes\n"
