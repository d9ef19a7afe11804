"""Inference: each method is averaged over its own seeds, Holm stays inside a family, the
bootstrap runs on any split, subgroup differences get CIs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.bootstrap import holm
from reasonbench.analysis.inference import (
    ComparisonSpec,
    compare,
    design,
    distribution,
    holm_within,
    method_intervals,
)
from reasonbench.analysis.metrics import RECEIPT_ACCURACY, REVISED_VERDICT_ACCURACY
from reasonbench.analysis.record import Comparison, Effect
from tests.analysis import synth
from tests.analysis.helpers import per_seed

OUTCOMES = [REVISED_VERDICT_ACCURACY, RECEIPT_ACCURACY]


def test_fewer_seeds_are_averaged_over_their_own_seeds() -> None:
    """A 3-seed method with seed accuracies 1, 1, 0 (mean 2/3) beside a 5-seed method: reusing
    seeds cyclically reported 0.8; each method's estimate is the mean over its own seeds."""
    n = 30
    methods = {
        "three": per_seed("three", [[True] * n, [True] * n, [False] * n]),
        "five": per_seed("five", [[True] * n] * 4 + [[False] * n]),
    }
    d = design("test_locked", methods, 400, 0)
    assert d is not None
    result = method_intervals(d, {"three": OUTCOMES, "five": OUTCOMES})
    assert result.methods["three"].outcomes[RECEIPT_ACCURACY].estimate == pytest.approx(2 / 3)
    assert result.methods["five"].outcomes[RECEIPT_ACCURACY].estimate == pytest.approx(4 / 5)
    assert result.methods["three"].seeds == 3
    # every replicate resamples the method's own three seeds: a multiple of 1/3
    _, dist = distribution(d, "three", RECEIPT_ACCURACY)
    assert np.allclose(dist * 3, np.round(dist * 3))
    assert set(np.round(dist * 3).astype(int)) <= {0, 1, 2, 3} and len(set(np.round(dist * 3))) > 1


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_estimate_is_the_mean_over_the_methods_own_seeds(
    sa: int, sb: int, data: st.DataObject
) -> None:
    n = 12
    rights = {m: data.draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=k, max_size=k))
              for m, k in (("a", sa), ("b", sb))}  # fmt: skip
    methods = {m: per_seed(m, r) for m, r in rights.items()}
    d = design("test_locked", methods, 50, 1)
    assert d is not None
    for m, r in rights.items():
        estimate, _ = distribution(d, m, RECEIPT_ACCURACY)
        assert estimate == pytest.approx(np.mean([np.mean(seed) for seed in r]))
    comp = compare(ComparisonSpec("a_vs_b", "a", "b", "f"), d, OUTCOMES)
    expected = np.mean([np.mean(s) for s in rights["a"]]) - np.mean(
        [np.mean(s) for s in rights["b"]]
    )
    assert comp.outcomes[RECEIPT_ACCURACY].estimate == pytest.approx(expected)


def _comparison(name: str, family: str, ps: list[float]) -> Comparison:
    effects = {o: Effect(0.0, 0.0, 0.0, p, p) for o, p in zip(OUTCOMES, ps, strict=False)}
    return Comparison(name, "a", "b", family, "test_locked", "ok", effects)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=2, max_size=2),
    st.lists(st.tuples(st.sampled_from(["surface", "replication", "other"]),
                       st.lists(st.floats(0, 1), min_size=1, max_size=2)), max_size=4),
)  # fmt: skip
def test_secondary_comparisons_never_change_a_primary_p_holm(primary: list[float], others) -> None:  # type: ignore[no-untyped-def]
    alone = holm_within([_comparison("main", "primary", primary)])
    crowd = holm_within(
        [
            _comparison("main", "primary", primary),
            *(_comparison(f"c{i}", fam, ps) for i, (fam, ps) in enumerate(others)),
        ]  # fmt: skip
    )
    assert crowd["main"].outcomes == alone["main"].outcomes
    expected = holm({o: p for o, p in zip(OUTCOMES, primary, strict=True)})
    assert {o: e.p_holm for o, e in alone["main"].outcomes.items()} == expected


def test_adding_a_secondary_comparison_end_to_end(toy_benchmark: Path, tmp_path: Path) -> None:
    gold_ = synth.gold_of(toy_benchmark)
    splits = ["test_locked", "cardinality_test"]
    synth.write(
        tmp_path / "a.jsonl",
        synth.records(gold_, "a", "cube", range(3), synth.constant(0.9), splits),
    )
    synth.write(
        tmp_path / "b.jsonl",
        synth.records(gold_, "b", "direct_receipt", range(5), synth.constant(0.7), splits),
    )
    synth.write(
        tmp_path / "c.jsonl",
        synth.records(gold_, "c", "direct_receipt", range(1), synth.constant(0.6), splits),
    )
    primary = {"name": "a_vs_b", "a": "a", "b": "b", "family": "primary", "by": ["stratum"]}
    secondary = {"name": "b_vs_c", "a": "b", "b": "c", "family": "surface"}
    card = {
        "name": "a_vs_b_card",
        "a": "a",
        "b": "b",
        "family": "cardinality",
        "split": "cardinality_test",
    }
    one = analyze(toy_benchmark, tmp_path, [primary], replicates=300)["inference"]
    both = analyze(toy_benchmark, tmp_path, [primary, secondary, card], replicates=300)["inference"]
    assert both["comparisons"]["a_vs_b"] == one["comparisons"]["a_vs_b"]
    assert both["families"] == {
        "primary": ["a_vs_b"],
        "surface": ["b_vs_c"],
        "cardinality": ["a_vs_b_card"],
    }
    outcomes = both["comparisons"]["a_vs_b"]["outcomes"]
    assert set(outcomes) == set(OUTCOMES)
    assert outcomes[RECEIPT_ACCURACY]["p_holm"] >= outcomes[RECEIPT_ACCURACY]["p_value"]
    # the split parameter: the cardinality comparison bootstraps cardinality_test's own units
    card_units = both["splits"]["cardinality_test"]["units"]
    assert both["comparisons"]["a_vs_b_card"]["split"] == "cardinality_test" and card_units > 0
    locked = {g.unit_id for g in gold_.values() if g.split == "test_locked"}
    assert both["splits"]["test_locked"]["units"] == len(locked)
    strata = both["comparisons"]["a_vs_b"]["subgroups"]["stratum"]
    assert set(strata) == {"logical", "organizational"}
    for ci in strata.values():
        assert (
            ci[RECEIPT_ACCURACY]["low"]
            <= ci[RECEIPT_ACCURACY]["estimate"]
            <= ci[RECEIPT_ACCURACY]["high"]
        )
    assert both["splits"]["test_locked"]["methods"]["a"]["seeds"] == 3
