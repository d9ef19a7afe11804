"""Baselines write valid records for every split; analyze scores them end to end."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reasonbench.analysis.analyze import analyze
from reasonbench.baselines import load_rows


def test_every_split_is_predicted(toy_benchmark: Path, toy_predictions: Path) -> None:
    result = analyze(toy_benchmark, toy_predictions, replicates=200)
    splits = set(result["methods"]["majority"]["seeds"]["0"]["splits"])
    assert {"train", "test_locked", "controls_locked", "cardinality_test"} <= splits


def test_majority_receipt_accuracy_is_the_stable_share(
    toy_benchmark: Path, toy_predictions: Path
) -> None:
    rows = load_rows(toy_benchmark)
    for stratum in ("organizational", "logical"):
        families = Counter(r["receipt"] for r in rows["train"] if r["stratum"] == stratum)
        assert families.most_common(1)[0][0] == "[]"  # stable is the majority family on the toy
    result = analyze(toy_benchmark, toy_predictions, replicates=200)
    locked = result["methods"]["majority"]["seeds"]["0"]["splits"]["test_locked"]
    stable_share = sum(r["receipt"] == "[]" for r in rows["test_locked"]) / len(rows["test_locked"])
    # predicting "no receipt" everywhere is right exactly on the stable cases
    assert locked["metrics"]["receipt_accuracy"]["value"] == pytest.approx(stable_share)


def test_comparison_and_holm(toy_benchmark: Path, toy_predictions: Path) -> None:
    comparisons = [
        {"name": "tfidf_vs_majority", "a": "tfidf", "b": "majority"},
        {"name": "missing", "a": "cube", "b": "direct_receipt"},
    ]
    result = analyze(toy_benchmark, toy_predictions, comparisons=comparisons, replicates=500)
    comp = result["inference"]["comparisons"]
    assert comp["missing"]["status"] == "not run"
    outcomes = comp["tfidf_vs_majority"]["outcomes"]
    for outcome in ("revised_verdict_accuracy", "receipt_accuracy"):
        assert (
            outcomes[outcome]["low"] <= outcomes[outcome]["estimate"] <= outcomes[outcome]["high"]
        )
        assert outcomes[outcome]["p_holm"] >= outcomes[outcome]["p_value"]


def test_consistency_and_selective_reported(toy_benchmark: Path, toy_predictions: Path) -> None:
    result = analyze(toy_benchmark, toy_predictions, replicates=200)
    seed = result["methods"]["tfidf"]["seeds"]["0"]
    assert set(seed["consistency"]["pooled"]) == {"inverse", "permutation", "distractor"}
    assert set(seed["consistency"]["strata"]) == {"logical", "organizational"}
    curve = seed["selective"]["raw"]["tfidf_receipt_prob"]
    assert [row["target_coverage"] for row in curve] == [
        0.2,
        0.3,
        0.4,
        0.5,
        0.6,
        0.7,
        0.8,
        0.9,
        1.0,
    ]
