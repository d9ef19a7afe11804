"""``analyze`` refuses bad prediction files with one line naming the file and line (or the
method), before scoring anything."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from reasonbench.analysis.analyze import CalibrationSettings, analyze
from reasonbench.analysis.inference import ComparisonSpec
from reasonbench.analysis.methods import roles
from reasonbench.cli.main import main
from reasonbench.predictions import PredictionFileError
from tests.analysis import synth

SPLIT = "dev"


@pytest.fixture(scope="module")
def rows(toy_benchmark: Path) -> list[dict[str, object]]:
    gold = synth.gold_of(toy_benchmark)
    records = synth.records(gold, "mine", "cube", [0], synth.constant(0.8), [SPLIT])
    return [r.to_json() for r in records]


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def refused(bench: Path, directory: Path, match: str) -> None:
    with pytest.raises(PredictionFileError, match=match):
        analyze(bench, directory, replicates=20)


def test_clean_file_is_accepted(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    write(tmp_path / "p" / "mine.jsonl", rows)
    result = analyze(toy_benchmark, tmp_path / "p", replicates=20)
    assert result["methods"]["mine"]["info"]["target"] == "cube"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("schema_version", "1", r"mine.jsonl:3: unknown schema_version '1'"),
        ("pred_new_verdict", "maybe", r"mine.jsonl:3: pred_new_verdict 'maybe' is not a verdict of the \w+ stratum"),
        ("pred_cube", json.dumps({"": "deny", "G": "approve"}), r"mine.jsonl:3: pred_cube needs exactly the 8 cells of G\+N\+A: missing cell"),
        ("pred_cube", json.dumps(["deny"] * 8), r"mine.jsonl:3: pred_cube needs exactly the 8 cells.*JSON object"),
        ("pred_receipt", json.dumps([["X"]]), r"mine.jsonl:3: pred_receipt .*X"),
    ],
)  # fmt: skip
def test_bad_field_is_refused_with_file_and_line(
    toy_benchmark: Path,
    rows: list,
    tmp_path: Path,
    field: str,
    value: str,
    message: str,  # type: ignore[type-arg]
) -> None:
    bad = [dict(r) for r in rows]
    bad[2][field] = value
    write(tmp_path / "mine.jsonl", bad)
    refused(toy_benchmark, tmp_path, message)


def test_cube_cell_outside_the_label_set(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    bad = [dict(r) for r in rows]
    cells = json.loads(str(bad[4]["pred_cube"]))
    cells["G+N"] = "perhaps"
    bad[4]["pred_cube"] = json.dumps(cells)
    write(tmp_path / "mine.jsonl", bad)
    refused(toy_benchmark, tmp_path, r"mine.jsonl:5: pred_cube cell 'perhaps' is not a verdict")


def test_parse_ok_with_nothing_said(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    bad = [dict(r) for r in rows]
    for f in ("pred_old_verdict", "pred_new_verdict", "pred_receipt", "pred_cube"):
        bad[1][f] = None
    write(tmp_path / "mine.jsonl", bad)
    refused(
        toy_benchmark,
        tmp_path,
        r"mine.jsonl:2: parse_ok is true but every prediction field is null",
    )


def test_field_the_target_does_not_carry(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    bad = [dict(r, target="direct_verdict") for r in rows]
    write(tmp_path / "mine.jsonl", bad)
    refused(toy_benchmark, tmp_path, r"mine.jsonl:1: target direct_verdict carries no old")


def test_zero_records_and_empty_directory(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    (tmp_path / "empty").mkdir()
    refused(toy_benchmark, tmp_path / "empty", "no \\*.jsonl or \\*.parquet prediction files under")
    write(tmp_path / "one" / "mine.jsonl", rows)
    (tmp_path / "one" / "other.jsonl").write_text("")
    refused(toy_benchmark, tmp_path / "one", r"other.jsonl: no prediction records")


def test_one_method_one_target(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    write(tmp_path / "a.jsonl", rows)
    other = [dict(r, seed=1, target="direct_receipt", pred_cube=None) for r in rows]
    write(tmp_path / "b.jsonl", other)
    refused(
        toy_benchmark,
        tmp_path,
        r"method mine: records declare targets \['cube', 'direct_receipt'\]",
    )


def test_role_expecting_another_target(toy_benchmark: Path, rows: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    write(tmp_path / "mine.jsonl", rows)
    roles = {"direct_receipt": {"method": "mine", "target": "direct_receipt"}}
    with pytest.raises(
        PredictionFileError,
        match="plays the role direct_receipt, which expects target direct_receipt",
    ):
        analyze(toy_benchmark, tmp_path, replicates=20, role_map=roles)


def test_cli_refusal_is_one_line(
    toy_benchmark: Path,
    rows: list,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # type: ignore[type-arg]
) -> None:
    bad = [dict(r) for r in rows]
    bad[0]["pred_new_verdict"] = "maybe"
    write(tmp_path / "p" / "mine.jsonl", bad)
    argv = ["analyze", f"data_dir={toy_benchmark}", f"predictions_dir={tmp_path / 'p'}",
            f"out={tmp_path / 'm.json'}", "replicates=20", "progress=false"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("reasonbench analyze: error: ")
    assert "mine.jsonl:1: pred_new_verdict 'maybe'" in err[0]
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: CalibrationSettings(selective_on=("raw", "bogus")), "selective_on \\['bogus'\\]: a confidence scale is 'raw' or one of"),
        (lambda: CalibrationSettings(maps=("isotonik",)), "unknown calibration map 'isotonik'.*did you mean 'isotonic'"),
        (lambda: ComparisonSpec.of({"name": "x", "a": "p", "b": "q", "familly": "f"}), "unknown key\\(s\\) \\['familly'\\]"),
        (lambda: ComparisonSpec.of({"name": "x", "a": "p"}), "missing \\['b'\\]"),
        (lambda: ComparisonSpec.of({"name": "x", "a": "p", "b": "q", "by": ["stratun"]}), "unknown subgroup 'stratun'.*did you mean 'stratum'"),
        (lambda: roles({"cube": {"target": "cube"}}), "role 'cube': expected \\{method"),
    ],
)  # fmt: skip
def test_bad_settings_name_the_setting(make: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as raised:
        make()
    assert type(raised.value).__module__.startswith("reasonbench.")  # one line at the CLI edge


def test_a_bad_setting_is_one_line_at_the_cli(
    toy_benchmark: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["analyze", f"data_dir={toy_benchmark}", f"predictions_dir={tmp_path}",
            f"out={tmp_path / 'm.json'}", "progress=false", "selective_on=[raw,bogus]"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error" not in err[0] and "selective_on ['bogus']" in err[0]
