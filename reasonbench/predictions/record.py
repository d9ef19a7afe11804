"""The prediction record: the one format every method writes and the analysis reads.

See docs/predictions.md. ``pred_receipt`` and ``pred_cube`` are JSON text (or null) so a record
is flat and identical in JSONL and Parquet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from reasonbench.targets import TARGETS

SCHEMA_VERSION = "2"
"""Version 2 added ``target``: what a method answers decides which metrics apply to it."""
KNOWN_VERSIONS = (SCHEMA_VERSION,)


class RecordError(ValueError):
    """A malformed prediction record; the message names the field."""


@dataclass(frozen=True)
class PredictionRecord:
    example_id: str
    method: str
    seed: int
    split: str
    target: str  # the registered target the method answers in (reasonbench.targets)
    raw_output: str
    parse_ok: bool
    pred_old_verdict: str | None
    pred_new_verdict: str | None
    pred_receipt: str | None  # JSON list of lists of source names
    pred_cube: str | None  # JSON object keyed like `reasonbench receipt`
    confidence: float | None
    confidence_source: str | None
    verdict_source: str
    schema_version: str = SCHEMA_VERSION

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PredictionRecord:
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in data]
        if missing:
            raise RecordError(f"missing field(s) {missing}")
        extra = sorted(set(data) - set(names))
        if extra:
            raise RecordError(f"unknown field(s) {extra}")
        record = cls(**{n: data[n] for n in names})
        record.validate()
        return record

    def validate(self) -> None:
        _typed(self.example_id, str, "example_id")
        _typed(self.method, str, "method")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise RecordError(f"seed must be an integer, got {self.seed!r}")
        _typed(self.split, str, "split")
        _typed(self.target, str, "target")
        if self.target not in TARGETS:
            raise RecordError(f"target: {TARGETS.unknown(self.target)}")
        _typed(self.raw_output, str, "raw_output")
        _typed(self.parse_ok, bool, "parse_ok")
        for name in ("pred_old_verdict", "pred_new_verdict", "confidence_source"):
            value = getattr(self, name)
            if value is not None:
                _typed(value, str, name)
        for name in ("pred_receipt", "pred_cube"):
            value = getattr(self, name)
            if value is not None:
                try:
                    json.loads(value)
                except (TypeError, json.JSONDecodeError):
                    raise RecordError(
                        f"{name} must be JSON text or null, got {value!r:.60}"
                    ) from None
        if self.confidence is not None:
            if isinstance(self.confidence, bool) or not isinstance(self.confidence, int | float):
                raise RecordError(f"confidence must be a number or null, got {self.confidence!r}")
            if not 0.0 <= float(self.confidence) <= 1.0:
                raise RecordError(f"confidence must lie in [0, 1], got {self.confidence}")
            if self.confidence_source is None:
                raise RecordError("a confidence needs its confidence_source (ADR-054)")
        _typed(self.verdict_source, str, "verdict_source")
        _typed(self.schema_version, str, "schema_version")
        if self.schema_version not in KNOWN_VERSIONS:
            raise RecordError(
                f"unknown schema_version {self.schema_version!r} (this reasonbench reads "
                f"{', '.join(KNOWN_VERSIONS)}; regenerate the predictions)"
            )


def _typed(value: object, kind: type, name: str) -> None:
    if not isinstance(value, kind):
        raise RecordError(f"{name} must be {kind.__name__}, got {value!r:.60}")
