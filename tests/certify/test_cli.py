"""``reasonbench certify``: the Hydra front end over run_certify, with one-line errors."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from reasonbench.certify import OUTPUTS
from reasonbench.cli.config import validate
from reasonbench.cli.main import main
from tests.certify.test_monotone_check import table_cases

GRADE = "python:tests.certify.adjudicators:grade"
LABELS = "labels=[fail,pass,refer]"
ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "certify.md").read_text(encoding="utf-8")


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


def doc_block(marker: str) -> list[str]:
    """The commands of the fenced block that follows ``marker`` in docs/certify.md, one per
    (continued) line."""
    text = DOC[DOC.index(marker) :]
    text = text[text.index("```bash\n") + len("```bash\n") :]
    block = text[: text.index("```")]
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


COMMAND_FORMS = doc_block("<!-- command forms")


def test_the_docs_show_the_command_forms() -> None:
    assert len(COMMAND_FORMS) == 4
    assert any("command:sh -c '" in line for line in COMMAND_FORMS)
    assert any('command:"' in line for line in COMMAND_FORMS)


@pytest.mark.parametrize("line", COMMAND_FORMS)
def test_each_documented_command_form_runs_as_typed(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)  # the documented paths are relative to the repository root
    one = tmp_path / "r-101.jsonl"  # one case keeps the processes few
    cases = (ROOT / "data/examples/certify/refunds.jsonl").read_text(encoding="utf-8")
    one.write_text(next(c for c in cases.splitlines(keepends=True) if '"r-101"' in c))
    words = shlex.split(line)  # what the shell hands over
    assert words[:2] == ["reasonbench", "certify"]
    argv = [
        f"cases={one}" if w.startswith("cases=") else f"out_dir={tmp_path / 'out'}"
        if w.startswith("out_dir=") else w
        for w in words[1:]
    ]  # fmt: skip
    assert main([*argv, "progress=false"]) == 0, capsys.readouterr().err
    # r-101 changes only policy and season: its hybrids are 4 distinct ones, each executed once
    assert "(4 executed) -> " in capsys.readouterr().out
    (row,) = (tmp_path / "out" / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    assert row in DOC  # the receipt example 1 shows for r-101
    judge = "python3 data/examples/certify/refund_judge.py"
    plugin_id = f"command:sh -c '{judge} | tail -n 1'" if "sh -c" in line else f"command:{judge}"
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["config"]["adjudicator_id"] == plugin_id  # the argv, re-quoted canonically


def test_labels_hydra_would_read_as_json_stay_text(
    cases_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = [
        "certify",
        f"cases={cases_file}",
        "adjudicator=python:tests.certify.adjudicators:json_words",
        "labels=[true,false,null,1,1.10]",
        f"out_dir={out}",
        "progress=false",
    ]
    assert main(argv) == 0, capsys.readouterr().err
    rows = {r["id"]: r for r in map(json.loads, (out / "receipts.jsonl").read_text().splitlines())}
    assert (rows["regraded"]["old"], rows["regraded"]["new"]) == ("false", "true")
    assert rows["lost-course"]["new"] == "null"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["labels"] == ["true", "false", "null", "1", "1.10"]
    composed = validate("certify", ["order=[false,null,true]", "adjudicator_version=1.10"])
    assert list(composed.order) == ["false", "null", "true"]
    assert composed.adjudicator_version == "1.10"
    assert validate("certify", ["order=null"]).order is None  # null itself stays null


def test_a_monotone_run_says_what_it_assumed(
    cases_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["certify", f"cases={cases_file}", f"adjudicator={GRADE}", LABELS, f"out_dir={out}"]
    assert main([*argv, "execution=monotone", "verify_fraction=1", "progress=false"]) == 0
    said = capsys.readouterr().out.strip()
    assert said.startswith("certified 6 case(s) assuming the adjudicator is monotone: ")
    assert re.search(
        r"; [1-9]\d* inferred cell\(s\) re-asked; no violation of the assumption", said
    )
    assert main([*argv, "progress=false"]) == 0  # adaptive assumes nothing, and says nothing
    assert "assuming" not in capsys.readouterr().out
    # a table where a pass lies below a fail: not monotone
    table = table_cases(
        tmp_path / "t.jsonl", [("fail", "pass", "fail", "fail", "fail") + ("fail",) * 2 + ("pass",)]
    )
    argv = ["certify", f"cases={table}", "adjudicator=python:tests.certify.adjudicators:table_rule"]
    argv += ["labels=[fail,pass]", "execution=monotone", "verify_fraction=1", f"out_dir={out}-t"]
    assert main([*argv, "progress=false"]) == 0
    said = capsys.readouterr().out
    assert "; the assumption failed on 1 case(s): rerun with execution=adaptive) -> " in said


def test_a_sweep_writes_under_out_dir_only(
    cases_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    out = tmp_path / "sweep"
    argv = ["certify", "-m", f"cases={cases_file}", f"adjudicator={GRADE}", LABELS]
    assert main([*argv, f"out_dir={out}", "execution=adaptive,monotone", "progress=false"]) == 0
    assert list(cwd.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["0", "1", "multirun.yaml"]
    for job, execution in (("0", "adaptive"), ("1", "monotone")):
        summary = json.loads((out / job / "summary.json").read_text())
        assert summary["config"]["execution"] == execution
        assert (out / job / "receipts.jsonl").is_file() and (out / job / "cache.jsonl").is_file()


def test_out_dir_cannot_be_swept(
    cases_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["certify", "-m", f"cases={cases_file}", f"adjudicator={GRADE}", LABELS, "out_dir=a,b"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "reasonbench certify: error: out_dir cannot be swept: each job of a sweep writes to "
        "<out_dir>/<job number>/ (give one out_dir), in the command line"
    )
    assert list(tmp_path.iterdir()) == [cases_file]


def test_outputs_do_not_depend_on_how_the_case_path_is_typed(
    cases_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.jsonl").symlink_to(cases_file)
    typed = ["cases.jsonl", "./cases.jsonl", str(cases_file), "link.jsonl"]
    outputs = []
    for i, path in enumerate(typed):
        argv = ["certify", f"cases={path}", f"adjudicator={GRADE}", LABELS, f"out_dir=out{i}"]
        assert main([*argv, "progress=false"]) == 0
        outputs.append({n: (tmp_path / f"out{i}" / n).read_bytes() for n in OUTPUTS})
    assert all(o == outputs[0] for o in outputs)
    summary = json.loads(outputs[0]["summary.json"])
    assert summary["input"]["name"] == "cases.jsonl" and "path" not in summary["input"]
