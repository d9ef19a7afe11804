"""Character n-gram TF-IDF + logistic regression over whole-transition labels.

One scikit-learn pipeline per stratum predicts the transition label (old verdict, new verdict
and receipt family at once), so its endpoints and receipt are always mutually coherent. The
predicted class probability is the confidence (source ``tfidf_label_prob``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline

from reasonbench.baselines.common import Row, iter_splits, label_of, record_for
from reasonbench.predictions.record import PredictionRecord

METHOD = "tfidf"
SOURCE = "tfidf_label_prob"


def make_model(
    ngram: tuple[int, int] = (3, 5), max_features: int = 200_000, c: float = 10.0
) -> Pipeline:
    return make_pipeline(
        TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=ngram,
            max_features=max_features,
            sublinear_tf=True,
            dtype=np.float64,
        ),
        LogisticRegression(C=c, max_iter=300),
    )


def tfidf_predictions(
    rows: Mapping[str, Sequence[Row]],
    train_splits: Sequence[str] = ("train",),
    **model_args: object,
) -> list[PredictionRecord]:
    models: dict[str, Pipeline] = {}
    train = [r for s in train_splits for r in rows[s]]
    for stratum in sorted({r["stratum"] for r in train}):
        part = [r for r in train if r["stratum"] == stratum]
        model = make_model(**model_args)  # type: ignore[arg-type]
        model.fit([r["prompt"] for r in part], [label_of(r) for r in part])
        models[stratum] = model
    out: list[PredictionRecord] = []
    for split, split_rows in iter_splits(rows):
        for stratum, model in models.items():
            part = [r for r in split_rows if r["stratum"] == stratum]
            if not part:
                continue
            probabilities = model.predict_proba([r["prompt"] for r in part])
            classes = model.classes_
            for row, probs in zip(part, probabilities, strict=True):
                best = int(probs.argmax())
                out.append(
                    record_for(row, METHOD, str(classes[best]), float(probs[best]), SOURCE, split)
                )
    order = {r["id"]: i for _, split_rows in iter_splits(rows) for i, r in enumerate(split_rows)}
    out.sort(key=lambda rec: (rec.split, order[rec.example_id]))
    return out
