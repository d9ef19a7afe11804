"""Character n-gram TF-IDF + logistic regression: the surface diagnostic.

Per stratum, one TF-IDF vectorizer over the training prompts (``char_wb`` n-grams, computed word
by word: see ngrams.py) feeds three logistic regressions, fitted by averaged SGD on the log loss
(lbfgs took minutes on the paper-scale prompts for the same held-out accuracy):
the old verdict, the revised verdict and the receipt family (as one class label, e.g. ``G | N+A``
or ``none``). Fields are predicted independently, as a surface classifier would, so a prediction
may be incoherent (a stable pair of endpoints with a non-empty receipt); it is scored as is. The
confidence is the predicted probability of the chosen receipt class (source
``tfidf_receipt_prob``).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.linear_model import SGDClassifier

from reasonbench.baselines.common import Row, field_record, iter_splits
from reasonbench.baselines.ngrams import CharNgramTfidf
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets.serialize import NO_RECEIPT

METHOD = "tfidf"
SOURCE = "tfidf_receipt_prob"
FIELDS = ("old", "new", "receipt")


def family_label(row: Mapping[str, object]) -> str:
    family = json.loads(str(row["receipt"]))
    return " | ".join("+".join(s) for s in family) or NO_RECEIPT


def _targets(row: Mapping[str, object]) -> dict[str, str]:
    return {
        "old": str(row["old_verdict"]),
        "new": str(row["new_verdict"]),
        "receipt": family_label(row),
    }


def _family(label: str) -> list[list[str]]:
    return [] if label == NO_RECEIPT else [s.split("+") for s in label.split(" | ")]


# the settings of `tfidf_predictions`, one line each (`reasonbench baselines --help` shows them as
# tfidf.<key>: the command's keys are this function's parameters, reasonbench/cli/schemas.py)
SETTINGS_HELP = {
    "ngram": "char_wb n-gram lengths",
    "max_features": "most frequent training n-grams kept (null: all)",
    "alpha": "L2 penalty of the SGD-fitted logistic regressions",
    "epochs": "SGD passes (fixed: no early stop, so runs are identical)",
    "seed": "seed of the SGD shuffles",
}


def default_settings() -> dict[str, Any]:
    """The settings a TF-IDF run uses when given none: :func:`tfidf_predictions`'s defaults for
    the keys of :data:`SETTINGS_HELP`, as JSON values (what a record of the run shows)."""
    parameters = inspect.signature(tfidf_predictions).parameters
    return {
        key: list(default) if isinstance(default := parameters[key].default, tuple) else default
        for key in SETTINGS_HELP
    }


def tfidf_predictions(
    rows: Mapping[str, Sequence[Row]],
    train_splits: Sequence[str] = ("train",),
    ngram: Sequence[int] = (3, 5),
    max_features: int | None = 200_000,
    alpha: float = 1e-5,
    epochs: int = 15,
    seed: int = 0,
    method: str = METHOD,
) -> list[PredictionRecord]:
    """``alpha`` is the L2 penalty, ``epochs`` the SGD passes; deterministic for a ``seed``.
    ``method``: the records' method name (a variant trained on other splits is its own)."""
    train = [r for s in train_splits for r in rows[s]]
    out: list[PredictionRecord] = []
    for stratum in sorted({r["stratum"] for r in train}):
        part = [r for r in train if r["stratum"] == stratum]
        vectorizer = CharNgramTfidf((ngram[0], ngram[1]), max_features)
        features = vectorizer.fit_transform([r["prompt"] for r in part])
        models = {}
        for field in FIELDS:
            labels = [_targets(r)[field] for r in part]
            model = SGDClassifier(
                loss="log_loss",
                alpha=alpha,
                max_iter=epochs,
                tol=None,  # a fixed number of passes: same work, same result, every run
                average=True,
                random_state=seed,
            )
            models[field] = model.fit(features, labels) if len(set(labels)) > 1 else labels[0]
        for split, split_rows in iter_splits(rows):
            chosen = [r for r in split_rows if r["stratum"] == stratum]
            if not chosen:
                continue
            x = vectorizer.transform([r["prompt"] for r in chosen])
            predicted: dict[str, list[str]] = {}
            confidence = np.ones(len(chosen))
            for field, model in models.items():
                if isinstance(model, str):  # a field with one training label is constant
                    predicted[field] = [model] * len(chosen)
                    continue
                probabilities = model.predict_proba(x)
                best = probabilities.argmax(axis=1)
                predicted[field] = [str(model.classes_[i]) for i in best]
                if field == "receipt":
                    confidence = probabilities[np.arange(len(chosen)), best]
            for i, row in enumerate(chosen):
                fields = {
                    "old": predicted["old"][i],
                    "new": predicted["new"][i],
                    "receipt": json.dumps(_family(predicted["receipt"][i])),
                }
                out.append(field_record(row, method, split, fields, float(confidence[i]), SOURCE))
    order = {r["id"]: i for _, split_rows in iter_splits(rows) for i, r in enumerate(split_rows)}
    out.sort(key=lambda rec: (rec.split, order[rec.example_id]))
    return out
