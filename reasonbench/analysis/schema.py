"""The JSON Schema of ``metrics.json``, derived from its record types.

``python -m reasonbench.analysis.schema`` rewrites the committed ``docs/metrics.schema.json``;
``tests/analysis/test_schema.py`` checks that the committed file is exactly what the record
types give and validates ``analyze`` output against it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from reasonbench.analysis.jsontypes import json_schema
from reasonbench.analysis.record import FORMAT, MetricsReport

__all__ = ["SCHEMA_PATH", "metrics_schema", "schema_text"]

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "metrics.schema.json"


def metrics_schema() -> dict[str, Any]:
    schema = json_schema(MetricsReport, "reasonbench metrics.json", f"urn:{FORMAT}")
    schema["properties"]["format"] = {"const": FORMAT}
    return schema


def schema_text() -> str:
    return json.dumps(metrics_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_PATH
    target.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {target}")
