"""Prediction records: the one format every method writes and the analysis reads."""

from reasonbench.predictions.io import (
    JsonlWriter,
    PredictionFileError,
    read_predictions,
    write_parquet,
)
from reasonbench.predictions.load import load_predictions
from reasonbench.predictions.record import SCHEMA_VERSION, PredictionRecord, RecordError

__all__ = [
    "SCHEMA_VERSION",
    "JsonlWriter",
    "PredictionFileError",
    "PredictionRecord",
    "RecordError",
    "load_predictions",
    "read_predictions",
    "write_parquet",
]
