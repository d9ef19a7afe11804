"""Surface diagnostics: the majority baseline and a character TF-IDF classifier."""

from reasonbench.baselines.common import load_rows
from reasonbench.baselines.majority import majority_predictions
from reasonbench.baselines.tfidf import tfidf_predictions

__all__ = ["load_rows", "majority_predictions", "tfidf_predictions"]
