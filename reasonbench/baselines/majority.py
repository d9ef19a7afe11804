"""Majority diagnostic: each output field's most frequent training value, per stratum.

Fields are taken independently (old verdict, revised verdict, receipt family), as in the paper's
"most frequent outputs in train"; per stratum because the strata have different label sets. The
confidence is the training frequency of the chosen receipt family.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from reasonbench.baselines.common import Row, field_record, iter_splits
from reasonbench.predictions.record import PredictionRecord

METHOD = "majority"
SOURCE = "majority_train_frequency"


def _most_frequent(values: list[str]) -> tuple[str, float]:
    counts = Counter(values)
    # ties broken by value so the choice never depends on insertion order
    value, n = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return value, n / len(values)


def majority_predictions(
    rows: Mapping[str, Sequence[Row]], train_split: str = "train"
) -> list[PredictionRecord]:
    best: dict[str, tuple[str, str, str, float]] = {}
    for stratum in sorted({r["stratum"] for r in rows[train_split]}):
        part = [r for r in rows[train_split] if r["stratum"] == stratum]
        old, _ = _most_frequent([r["old_verdict"] for r in part])
        new, _ = _most_frequent([r["new_verdict"] for r in part])
        receipt, freq = _most_frequent([r["receipt"] for r in part])
        best[stratum] = (old, new, receipt, freq)
    out = []
    for split, split_rows in iter_splits(rows):
        for row in split_rows:
            old, new, receipt, freq = best[row["stratum"]]
            fields = {"old": old, "new": new, "receipt": receipt}
            out.append(field_record(row, METHOD, split, fields, freq, SOURCE))
    return out
