"""Selective evaluation against its definitions: the fitted threshold, every rate of the
accepted changes, the JSON form and the mixed-source refusal (found by mutation testing,
docs/testing.md)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.selective import (
    TARGET_COVERAGES,
    Decision,
    MixedSourceError,
    apply_threshold,
    fit_threshold,
    selective_curve,
    single_source,
)

decisions = st.builds(
    Decision,
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.one_of(st.none(), st.sampled_from([0.1, 0.2, 0.5, 0.5, 0.7, 0.9])),
    st.just("seq_prob"),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(decisions, max_size=30), st.sampled_from([0.05, *TARGET_COVERAGES]))
def test_threshold_is_the_highest_that_reaches_the_coverage(
    rows: list[Decision], coverage: float
) -> None:
    scores = [r.confidence for r in rows if r.predicted_change and r.confidence is not None]
    tau = fit_threshold(rows, coverage)
    if not scores:
        assert tau is None
        return
    need = min(len(scores), max(1, math.ceil(coverage * len(scores) - 1e-9)))
    assert tau in scores
    assert sum(s >= tau for s in scores) >= need
    assert all(sum(x >= s for x in scores) < need for s in scores if s > tau)


@settings(max_examples=100, deadline=None)
@given(st.lists(decisions, max_size=30), st.one_of(st.none(), st.sampled_from([0.2, 0.5, 0.9])))
def test_rates_of_the_accepted_changes(rows: list[Decision], tau: float | None) -> None:
    result = apply_threshold(rows, tau, 0.5)
    changes = [r for r in rows if r.predicted_change]
    accepted = [
        r for r in changes if tau is not None and r.confidence is not None and r.confidence >= tau
    ]
    gold = [r for r in rows if r.gold_changed]
    assert result.accepted == len(accepted)
    assert result.coverage == (len(accepted) / len(changes) if changes else None)
    wrong = [r for r in accepted if not r.account_correct]
    assert result.reason_debt == (len(wrong) / len(accepted) if accepted else None)
    right = [r for r in accepted if r.account_correct and r.gold_changed]
    assert result.gold_change_recall == (len(right) / len(gold) if gold else None)
    assert result.to_json() == {
        "target_coverage": 0.5,
        "threshold": tau,
        "coverage": result.coverage,
        "reason_debt": result.reason_debt,
        "gold_change_recall": result.gold_change_recall,
        "accepted": result.accepted,
    }


def row(confidence: float, source: str = "seq_prob", correct: bool = True) -> Decision:
    return Decision(True, correct, True, confidence, source)


def test_the_curve_fits_on_calibration_and_applies_to_test() -> None:
    calibration = [row(0.9), row(0.8), row(0.3), row(0.2)]
    test = [row(0.85, correct=False), row(0.5), row(0.1)]
    curve = selective_curve(calibration, test, targets=(0.5, 1.0))
    assert [r.target_coverage for r in curve] == [0.5, 1.0]
    assert [r.threshold for r in curve] == [0.8, 0.2]
    assert [r.accepted for r in curve] == [1, 2] and curve[0].reason_debt == 1.0
    assert len(selective_curve(calibration, test)) == len(TARGET_COVERAGES) == 9
    assert TARGET_COVERAGES[0] == 0.2 and TARGET_COVERAGES[-1] == 1.0


def test_sources_are_never_mixed_silently() -> None:
    rows = [row(0.5, "seq_prob"), row(0.4, "verdict_token_prob")]
    message = (
        r"refusing to fit one threshold across confidence sources \['seq_prob', "
        r"'verdict_token_prob'\]; fit per source, or pass allow_mixed=True to override"
    )
    with pytest.raises(MixedSourceError, match=message):
        single_source(rows)
    with pytest.raises(MixedSourceError):
        selective_curve(rows[:1], rows[1:])
    assert single_source(rows, allow_mixed=True) == "seq_prob+verdict_token_prob"
    assert single_source(rows[:1]) == "seq_prob"
    assert len(selective_curve(rows[:1], rows[1:], allow_mixed=True)) == 9
