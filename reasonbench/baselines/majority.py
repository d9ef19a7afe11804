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


def most_frequent(counts: Mapping[str, int]) -> str:
    """The most frequent value; ties broken by value, so the choice never depends on insertion
    order (the statistics table reuses it to show what this baseline can reach)."""
    return min(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]


def _most_frequent(values: list[str]) -> tuple[str, float]:
    counts = Counter(values)
    value = most_frequent(counts)
    return value, counts[value] / len(values)


def majority_predictions(
    rows: Mapping[str, Sequence[Row]],
    train_splits: Sequence[str] = ("train",),
    method: str = METHOD,
) -> list[PredictionRecord]:
    """``method``: the records' method name (a variant trained on other splits is its own)."""
    train = [r for s in train_splits for r in rows[s]]
    best: dict[str, tuple[str, str, str, float]] = {}
    for stratum in sorted({r["stratum"] for r in train}):
        part = [r for r in train if r["stratum"] == stratum]
        old, _ = _most_frequent([r["old_verdict"] for r in part])
        new, _ = _most_frequent([r["new_verdict"] for r in part])
        receipt, freq = _most_frequent([r["receipt"] for r in part])
        best[stratum] = (old, new, receipt, freq)
    out = []
    for split, split_rows in iter_splits(rows):
        for row in split_rows:
            old, new, receipt, freq = best[row["stratum"]]
            fields = {"old": old, "new": new, "receipt": receipt}
            out.append(field_record(row, method, split, fields, freq, SOURCE))
    return out
