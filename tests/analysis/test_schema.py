"""``metrics.json`` is a typed record: the committed JSON Schema is the one its types give,
``analyze`` output validates against it and round-trips through the record types."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.jsontypes import RecordFormatError
from reasonbench.analysis.record import MetricsReport
from reasonbench.analysis.schema import SCHEMA_PATH, schema_text


def test_committed_schema_is_generated_from_the_record_types() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "docs/metrics.schema.json is stale: run python -m reasonbench.analysis.schema"
    )


def test_analyze_output_validates_and_round_trips(
    toy_benchmark: Path, toy_predictions: Path
) -> None:
    metrics = analyze(
        toy_benchmark,
        toy_predictions,
        [{"name": "t", "a": "tfidf", "b": "majority", "by": ["stratum"]}],
        replicates=50,
    )
    metrics["config"] = {"any": ["resolved", "config"]}
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(json.dumps(metrics)), schema)
    assert MetricsReport.from_json(metrics).to_json() == metrics
    broken = json.loads(json.dumps(metrics))
    broken["methods"]["tfidf"]["seeds"]["0"]["splits"]["dev"]["n"] = "many"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    with pytest.raises(
        RecordFormatError, match=r"methods\.tfidf\.seeds\.0\.splits\.dev\.n: expected an integer"
    ):
        MetricsReport.from_json(broken)


@pytest.mark.parametrize(
    ("data", "found"),
    [({"methods": {}}, "None"), ({"format": "reasonbench.metrics/1"}, "'reasonbench.metrics/1'"),
     ([], "'list'")],
)  # fmt: skip
def test_other_formats_are_refused_by_name(data: object, found: str) -> None:
    with pytest.raises(RecordFormatError) as refused:
        MetricsReport.from_json(data)
    assert str(refused.value) == (
        f"not a metrics file of this reasonbench: format {found}, expected "
        "'reasonbench.metrics/2' (rerun 'reasonbench analyze')"
    )
