"""A baseline kind with a setting (docs/extending.md, "A new baseline kind"): every answer is
"no change" (the old verdict kept, the stable receipt), with a confidence its run sets
(``runs.<method>.settings.confidence``)."""

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.baselines import (
    BASELINES,
    STABLE_RECEIPT,
    BaselineSettingsError,
    Row,
    field_record,
    iter_splits,
)
from reasonbench.predictions.record import PredictionRecord


def inertia(
    rows: Mapping[str, Sequence[Row]],
    method: str,
    train: Sequence[str],
    settings: Mapping[str, Any],
) -> list[PredictionRecord]:
    unknown = set(settings) - {"confidence"}
    if unknown:
        raise BaselineSettingsError(
            f"unknown setting(s) {sorted(unknown)}; inertia takes confidence"
        )
    confidence = float(settings.get("confidence", 1.0))
    return [
        field_record(
            row,
            method,
            split,
            {"old": v, "new": v, "receipt": STABLE_RECEIPT},
            confidence,
            "inertia",
        )
        for split, part in iter_splits(rows)
        for row in part
        for v in [row["old_verdict"]]
    ]


BASELINES.register("inertia", inertia)
