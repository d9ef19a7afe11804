"""Prediction loader: round trip, and every refusal names its problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.predictions import (
    JsonlWriter,
    PredictionFileError,
    PredictionRecord,
    load_predictions,
    read_predictions,
    write_parquet,
)

SPLITS = {"dev": ["a", "b", "c"]}


def rec(example_id: str, **kw: object) -> PredictionRecord:
    base: dict[str, object] = dict(
        example_id=example_id,
        method="m",
        seed=0,
        split="dev",
        target="direct_verdict",
        raw_output="verdict: deny",
        parse_ok=True,
        pred_old_verdict=None,
        pred_new_verdict="deny",
        pred_receipt=None,
        pred_cube=None,
        confidence=0.5,
        confidence_source="verdict_token_prob",
        verdict_source="model",
    )
    base.update(kw)
    return PredictionRecord(**base)  # type: ignore[arg-type]


def write(path: Path, records: list[PredictionRecord]) -> None:
    with JsonlWriter(path) as writer:
        for r in records:
            writer.write(r)


def test_round_trip_jsonl_and_parquet(tmp_path: Path) -> None:
    records = [rec(i) for i in SPLITS["dev"]]
    write(tmp_path / "p.jsonl", records)
    (tmp_path / "q").mkdir()
    write_parquet(tmp_path / "q" / "p.parquet", records)
    assert read_predictions(tmp_path / "p.jsonl") == records
    assert read_predictions(tmp_path / "q" / "p.parquet") == records


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([rec("a"), rec("b"), rec("zz")], "unknown example id(s) zz"),
        ([rec("a"), rec("b"), rec("b"), rec("c")], "duplicate example id(s) b"),
        ([rec("a"), rec("b")], "1 example(s) of the split missing, e.g. c"),
        ([rec("a", split="test")], "unknown split 'test'"),
    ],
)
def test_loader_refusals(tmp_path: Path, records: list[PredictionRecord], message: str) -> None:
    write(tmp_path / "p.jsonl", records)
    with pytest.raises(PredictionFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_predictions(tmp_path, SPLITS)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("schema_version", "0", "p.jsonl:3: unknown schema_version '0'"),
        ("schema_version", "1", "p.jsonl:3: unknown schema_version '1'"),
        ("target", "essay", "p.jsonl:3: target: unknown target 'essay'"),
    ],
)
def test_unknown_version_or_target_is_refused_with_line(
    tmp_path: Path, field: str, value: str, message: str
) -> None:
    rows = [rec(i).to_json() for i in SPLITS["dev"]]
    rows[2][field] = value
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(PredictionFileError, match=message):
        load_predictions(tmp_path, SPLITS)


def test_truncated_jsonl_is_refused_with_line(tmp_path: Path) -> None:
    write(tmp_path / "p.jsonl", [rec(i) for i in SPLITS["dev"]])
    text = (tmp_path / "p.jsonl").read_text()
    (tmp_path / "p.jsonl").write_text(text[:-20])
    with pytest.raises(PredictionFileError, match="truncated file \\(line 3"):
        load_predictions(tmp_path, SPLITS)


def test_malformed_record_names_field(tmp_path: Path) -> None:
    data = rec("a").to_json()
    data["confidence"] = 1.5
    (tmp_path / "p.jsonl").write_text(json.dumps(data) + "\n")
    with pytest.raises(PredictionFileError, match="p.jsonl:1: confidence must lie in"):
        load_predictions(tmp_path, SPLITS)


def test_confidence_needs_source() -> None:
    with pytest.raises(ValueError, match="confidence_source"):
        rec("a", confidence_source=None).validate()
