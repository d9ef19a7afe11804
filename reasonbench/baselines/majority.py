"""Majority diagnostic: the most frequent transition label of the training split, per stratum.

Per stratum because the strata have different label sets (a pooled majority would answer
``approve`` to a logical query). Its confidence is the label's training frequency.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from reasonbench.baselines.common import Row, iter_splits, label_of, record_for
from reasonbench.predictions.record import PredictionRecord

METHOD = "majority"
SOURCE = "majority_train_frequency"


def majority_predictions(
    rows: Mapping[str, Sequence[Row]], train_split: str = "train"
) -> list[PredictionRecord]:
    counts: dict[str, Counter[str]] = {}
    for row in rows[train_split]:
        counts.setdefault(row["stratum"], Counter())[label_of(row)] += 1
    best = {}
    for stratum, counter in counts.items():
        # ties broken by label text so the choice never depends on insertion order
        label, n = min(counter.items(), key=lambda kv: (-kv[1], kv[0]))
        best[stratum] = (label, n / sum(counter.values()))
    out = []
    for split, split_rows in iter_splits(rows):
        for row in split_rows:
            label, freq = best[row["stratum"]]
            out.append(record_for(row, METHOD, label, freq, SOURCE, split))
    return out
