"""Selective evaluation: thresholds, reason debt semantics, source rules, calibration maps."""

from __future__ import annotations

import pytest

from reasonbench.analysis.calibration import CalibrationMaps
from reasonbench.analysis.selective import (
    Decision,
    MixedSourceError,
    apply_threshold,
    fit_threshold,
    selective_curve,
)


def d(
    change: bool, right: bool, gold: bool, conf: float | None, source: str = "seq_prob"
) -> Decision:
    return Decision(change, right, gold, conf, source)


ROWS = [
    d(True, True, True, 0.9),
    d(True, True, True, 0.8),
    d(True, False, False, 0.7),  # drift
    d(True, False, True, 0.6),  # misattribution
    d(False, False, True, 0.5),  # inertia (never accepted)
    d(False, False, False, 0.4),
]


def test_fit_threshold_hits_target_coverage() -> None:
    assert fit_threshold(ROWS, 0.5) == 0.8
    assert fit_threshold(ROWS, 1.0) == 0.6
    assert fit_threshold([d(False, False, False, 0.9)], 0.5) is None


def test_debt_coverage_recall_known_answers() -> None:
    result = apply_threshold(ROWS, 0.7, 0.75)
    assert result.accepted == 3 and result.coverage == pytest.approx(3 / 4)
    assert result.reason_debt == pytest.approx(1 / 3)
    assert result.gold_change_recall == pytest.approx(2 / 4)


def test_debt_undefined_when_nothing_accepted() -> None:
    result = apply_threshold(ROWS, 0.95, 0.2)
    assert result.accepted == 0 and result.reason_debt is None
    assert result.coverage == 0.0 and result.gold_change_recall == 0.0


def test_mixed_sources_refused_unless_overridden() -> None:
    mixed = [*ROWS, d(True, True, True, 0.99, source="self_report")]
    with pytest.raises(MixedSourceError, match="self_report"):
        selective_curve(mixed, ROWS)
    assert len(selective_curve(mixed, ROWS, allow_mixed=True)) == 9


def test_calibrated_value_is_none_without_a_map() -> None:
    rows = [d(True, i % 3 != 0, True, i / 40) for i in range(40)]
    maps = CalibrationMaps().fit(rows)
    assert maps.sources == ("seq_prob",)
    value = maps.calibrate("seq_prob", 0.5)
    assert value is not None and 0.0 <= value <= 1.0
    assert maps.calibrate("self_report", 0.5) is None
