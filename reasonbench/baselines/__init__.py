"""Surface diagnostics: the majority baseline and a character TF-IDF classifier.

Each is a registered baseline **kind** (:data:`BASELINES`): a function of the benchmark rows, the
records' method name, the splits it trains on and the kind's settings. ``reasonbench baselines``
makes every configured run (``runs`` of reasonbench baselines: method -> kind and training
splits), so a variant trained on more data is one more run, not new code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reasonbench.baselines.common import (
    COLUMNS,
    STABLE_RECEIPT,
    Row,
    field_record,
    iter_splits,
    load_rows,
)
from reasonbench.baselines.majority import majority_predictions
from reasonbench.baselines.tfidf import default_settings, tfidf_predictions
from reasonbench.predictions.record import PredictionRecord
from reasonbench.registry import Registry

__all__ = [
    "BASELINES",
    "COLUMNS",
    "STABLE_RECEIPT",
    "Baseline",
    "BaselineSettingsError",
    "Row",
    "field_record",
    "iter_splits",
    "load_rows",
    "majority_predictions",
    "tfidf_predictions",
]

# (rows by split, method, training splits, the kind's settings) -> prediction records
Baseline = Callable[
    [Mapping[str, Sequence[Row]], str, Sequence[str], Mapping[str, Any]], list[PredictionRecord]
]
BASELINES: Registry[Baseline] = Registry("baseline kind")


class BaselineSettingsError(ValueError):
    """A kind's refusal of its settings (``runs.<method>.settings`` of reasonbench baselines):
    the command prints it as one line naming the run."""


def _majority(
    rows: Mapping[str, Sequence[Row]],
    method: str,
    train: Sequence[str],
    settings: Mapping[str, Any],
) -> list[PredictionRecord]:
    if settings:  # it has none: a setting given to it would be silently ignored
        raise BaselineSettingsError(
            f"baseline kind 'majority' takes no settings, got {dict(settings)}"
        )
    return majority_predictions(rows, train, method)


BASELINES.register("majority", _majority)


def _tfidf(
    rows: Mapping[str, Sequence[Row]],
    method: str,
    train: Sequence[str],
    settings: Mapping[str, Any],
) -> list[PredictionRecord]:
    return tfidf_predictions(rows, train, method=method, **settings)


# a kind with settings may say what they are when none is given (what a record of its run shows)
setattr(_tfidf, "default_settings", default_settings)  # noqa: B010
BASELINES.register("tfidf", _tfidf)
