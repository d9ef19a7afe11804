"""TF-IDF baseline speed: train + predict over every split (goal: <= 60 s on this machine).

Baselines measured in the same run: the majority diagnostic (the floor any classifier pays just to
read the data and write records), and scikit-learn's ``TfidfVectorizer(analyzer="char_wb")`` for
the features alone (same n-grams, same matrix as reasonbench's word-factored vectorizer). Also
prints the surface-diagnostic accuracies on the locked test.

Usage: python scripts/bench_baselines.py [--data-dir data/reasonbench]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sklearn.feature_extraction.text import TfidfVectorizer

from reasonbench.baselines import load_rows, majority_predictions, tfidf_predictions
from reasonbench.baselines.ngrams import CharNgramTfidf


def locked_accuracy(records: list, rows: dict) -> tuple[float, float]:  # type: ignore[type-arg]
    gold = {r["id"]: r for r in rows["test_locked"]}
    locked = [p for p in records if p.split == "test_locked"]
    verdict = sum(p.pred_new_verdict == gold[p.example_id]["new_verdict"] for p in locked) / len(
        locked
    )
    receipt = sum(
        json.loads(p.pred_receipt or "null") == json.loads(gold[p.example_id]["receipt"])
        for p in locked
    ) / len(locked)
    return verdict, receipt


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data/reasonbench"))
    args = parser.parse_args()
    start = time.perf_counter()
    rows = load_rows(args.data_dir)
    load = time.perf_counter() - start
    n = sum(len(v) for v in rows.values())
    start = time.perf_counter()
    majority = majority_predictions(rows)
    t_majority = time.perf_counter() - start
    start = time.perf_counter()
    tfidf = tfidf_predictions(rows)
    t_tfidf = time.perf_counter() - start
    print(f"{n:,} examples in {len(rows)} splits (load {load:.1f} s)")
    print(
        "| method | train + predict s | locked revised-verdict acc | locked exact receipt-family acc |"
    )
    print("|---|---|---|---|")
    for name, recs, seconds in (
        ("baseline: majority", majority, t_majority),
        ("char TF-IDF", tfidf, t_tfidf),
    ):
        v, r = locked_accuracy(recs, rows)
        print(f"| {name} | {seconds:.1f} | {100 * v:.1f} | {100 * r:.1f} |")
    print(f"TF-IDF / majority time ratio: {t_tfidf / max(t_majority, 1e-9):,.0f}x")
    print(f"goal TF-IDF <= 60 s: {'OK' if t_tfidf <= 60 else 'MISSED'}")
    vectorizers(rows)


def vectorizers(rows: dict) -> None:  # type: ignore[type-arg]
    """Features only: fit on the training prompts, transform every prompt, both ways."""
    train = [r["prompt"] for r in rows["train"]]
    every = [r["prompt"] for split in rows.values() for r in split]
    timings = {}
    for name, vectorizer in (
        ("reasonbench CharNgramTfidf", CharNgramTfidf((3, 5), 200_000)),
        (
            "baseline: sklearn TfidfVectorizer",
            TfidfVectorizer(
                analyzer="char_wb", ngram_range=(3, 5), max_features=200_000, sublinear_tf=True
            ),
        ),
    ):
        start = time.perf_counter()
        vectorizer.fit_transform(train)
        vectorizer.transform(every)
        timings[name] = time.perf_counter() - start
    print(f"\nchar_wb 3-5-gram TF-IDF features: fit on {len(train):,}, transform {len(every):,}")
    print("| vectorizer | seconds |\n|---|---|")
    for name, seconds in timings.items():
        print(f"| {name} | {seconds:.1f} |")
    ours, theirs = timings.values()
    print(f"ratio: {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
