"""Calibration on hand-built inputs (found by mutation testing, docs/testing.md): which bin a
confidence on a bin edge falls in, the ECE of empty and all-wrong bins, which points a map is
fitted on, what each map kind computes, and the per-seed, per-source maps of
:func:`calibrated_changes` — without a benchmark on disk."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.calibration import (
    MAP_KINDS,
    MIN_POINTS,
    CalibrationMaps,
    calibrated_changes,
    decision,
    ece,
    fit_report,
    reliability,
)
from reasonbench.analysis.gold import Gold
from reasonbench.analysis.record import CalibrationFit, ReliabilityBin
from reasonbench.analysis.scoring import score
from reasonbench.analysis.selective import Decision
from reasonbench.core import Answer
from reasonbench.predictions.answers import answer_record
from reasonbench.predictions.record import PredictionRecord
from tests.analysis.helpers import gold, scored

RIGHT = Answer("deny", "approve", (1,))  # the gold receipt of helpers.CHANGED: {G}
WRONG = Answer("deny", "approve", (2,))  # a misattribution: a predicted change, account wrong
SAYS_STABLE = Answer("deny", "deny", ())


def decisions(points: list[tuple[float | None, bool]], source: str = "s") -> list[Decision]:
    return [Decision(True, right, True, conf, source) for conf, right in points]


def which_bin(confidence: float, bins: int) -> ReliabilityBin:
    (hit,) = [b for b in reliability([confidence], [True], bins) if b.count]
    return hit


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.lists(st.floats(0, 1), max_size=6), st.data())
def test_a_confidence_falls_in_the_bin_whose_half_open_interval_holds_it(
    bins: int, confidences: list[float], data: st.DataObject
) -> None:
    table = reliability([], [], bins)
    assert [(b.count, b.confidence, b.accuracy) for b in table] == [(0, None, None)] * bins
    assert table[0].low == 0.0 and table[-1].high == 1.0
    assert all(a.high == b.low for a, b in zip(table, table[1:], strict=False))
    # every bin edge itself, drawn by index: a confidence on an edge starts the bin above it
    edges = data.draw(st.lists(st.integers(0, bins), max_size=4))
    for c in confidences + [table[i].low if i < bins else 1.0 for i in edges]:
        hit = which_bin(c, bins)
        assert hit.low <= c and (c < hit.high or c == hit.high == 1.0)
        assert hit.confidence == c and hit.accuracy == 1.0


def test_bin_edges_with_ten_bins() -> None:
    # 0.5 is an edge: it opens [0.5, 0.6), it does not close [0.4, 0.5); 1.0 is in the last bin
    assert (which_bin(0.5, 10).low, which_bin(0.1, 10).low) == (0.5, 0.1)
    assert which_bin(0.0, 10).low == 0.0 and which_bin(1.0, 10).low == 0.9
    table = reliability([0.5, 0.5, 0.45, 1.0], [True, False, True, False], bins=10)
    assert [b.count for b in table] == [0, 0, 0, 0, 1, 2, 0, 0, 0, 1]
    assert (table[5].confidence, table[5].accuracy) == (0.5, 0.5)
    assert (table[9].confidence, table[9].accuracy) == (1.0, 0.0)


def test_ten_bins_by_default_and_every_confidence_counted_once() -> None:
    default = reliability([], [])
    assert [b.low for b in default] == pytest.approx([i / 10 for i in range(10)])
    assert [b.count for b in default] == [0] * 10
    # a confidence a hair outside [0, 1] (float rounding in a confidence source) still counts,
    # in the end bin it is closest to: the ECE's weights are over every test point
    table = reliability([-1e-12, 0.3, 1 + 1e-12], [True, False, True], bins=4)
    assert [b.count for b in table] == [1, 1, 0, 1]
    assert (table[0].confidence, table[3].confidence) == (-1e-12, 1 + 1e-12)


def test_ece_counts_all_wrong_and_zero_confidence_bins() -> None:
    # bin [0, 0.5): confidence 0.0, all right; bin [0.5, 1]: confidence 0.55, all wrong
    table = reliability([0.0, 0.55], [True, False], bins=2)
    assert [(b.confidence, b.accuracy) for b in table] == [(0.0, 1.0), (0.55, 0.0)]
    assert ece(table) == pytest.approx(0.5 * 1.0 + 0.5 * 0.55)
    assert ece([ReliabilityBin(0.0, 1.0, 0, None, None)]) is None


def test_maps_are_fitted_on_enough_predicted_changes_with_both_outcomes() -> None:
    both = [(i / MIN_POINTS, i % 2 == 0) for i in range(MIN_POINTS)]
    ignored = [
        Decision(False, True, True, 0.5, "s"),  # not a predicted change
        Decision(True, True, True, None, "s"),  # no confidence
    ]
    rows = (
        decisions(both, "enough")
        + decisions(both[1:], "few")
        + decisions([(c, True) for c, _ in both], "one-outcome")
        + [Decision(True, r.account_correct, True, r.confidence, "ignored") for r in ignored]
        + [
            Decision(d.predicted_change, d.account_correct, True, d.confidence, "enough")
            for d in ignored
        ]
    )
    maps = CalibrationMaps().fit(rows)
    assert (maps.kind, maps.min_points) == ("isotonic", MIN_POINTS)
    assert maps.sources == ("enough",)
    assert maps.points == {"enough": MIN_POINTS, "few": MIN_POINTS - 1, "one-outcome": MIN_POINTS,
                           "ignored": 1}  # fmt: skip
    lenient = CalibrationMaps("platt", min_points=MIN_POINTS - 1).fit(rows)
    assert (lenient.kind, lenient.sources) == ("platt", ("enough", "few"))


def test_isotonic_is_the_pooled_monotone_fit_clipped_outside_the_data() -> None:
    # per confidence 0.1, 0.2, 0.3, 0.4: 0, 2, 1 and 5 right of 5; 0.2 and 0.3 pool to 3/10
    rights = {0.1: 0, 0.2: 2, 0.3: 1, 0.4: 5}
    points = [(c, i < n) for c, n in rights.items() for i in range(5)]
    maps = CalibrationMaps("isotonic").fit(decisions(points))
    probes = [0.0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 1.0]
    expected = [0.0, 0.0, 0.3, 0.3, 0.3, 0.65, 1.0, 1.0]
    assert maps.calibrate_many("s", probes) == pytest.approx(expected)


def platt_points(slope: float, n: int = 60) -> list[tuple[float | None, bool]]:
    """``n`` confidences in (0, 1) whose outcomes follow a logistic curve of that slope, with
    fixed pseudo-random draws (a smooth, separable-free data set)."""
    rng = np.random.default_rng(7)
    x = (np.arange(n) + 0.5) / n
    p = 1 / (1 + np.exp(-slope * (x - 0.5)))
    return [(float(c), bool(u < q)) for c, u, q in zip(x, rng.random(n), p, strict=True)]


@pytest.mark.parametrize("slope", [0.8, 6.0])
def test_platt_is_the_maximum_likelihood_logistic_fit(slope: float) -> None:
    points = platt_points(slope)
    maps = CalibrationMaps("platt").fit(decisions(points))
    x = np.array([c for c, _ in points])
    y = np.array([float(o) for _, o in points])
    p = np.array(maps.calibrate_many("s", list(x)), dtype=np.float64)
    # the likelihood's score equations: the residuals sum to 0, and so do they times x (to the
    # solver's tolerance, on 60 points)
    assert abs(float(np.sum(p - y))) < 2e-3 and abs(float(np.sum((p - y) * x))) < 2e-3
    assert np.all(np.diff(p) > 0)  # an increasing map: the fitted slope is positive


def test_platt_never_reverses_the_ranking() -> None:
    # outcomes that fall with the confidence: the slope is floored at 0, a constant map at the
    # base rate (the maximum-likelihood constant)
    points = [(x, not y) for x, y in platt_points(6.0)]
    base = sum(o for _, o in points) / len(points)
    maps = CalibrationMaps("platt").fit(decisions(points))
    assert maps.calibrate_many("s", [0.0, 0.5, 1.0]) == pytest.approx([base] * 3, abs=1e-12)


def test_platt_with_a_slope_below_one_keeps_its_fitted_intercept() -> None:
    # confidence 0: 5 of 10 right, confidence 1: 6 of 10: the maximum-likelihood logistic map
    # goes through both observed rates (slope log 1.5 ≈ 0.41, intercept 0), not through the
    # pooled base rate 11/20 (the constant fallback of a non-positive slope)
    points = [(0.0, i < 5) for i in range(10)] + [(1.0, i < 6) for i in range(10)]
    maps = CalibrationMaps("platt").fit(decisions(points))
    assert maps.calibrate_many("s", [0.0, 1.0]) == pytest.approx([0.5, 0.6], abs=1e-4)


def test_a_registered_map_kind_is_used_and_clipped_to_probabilities() -> None:
    # a third-party map may overshoot: calibrated confidences stay within [0, 1]
    def overshoot(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        return lambda c: 4 * c - 2

    MAP_KINDS.register("overshoot", overshoot)
    try:
        maps = CalibrationMaps("overshoot").fit(
            decisions([(i / 20, i % 2 == 0) for i in range(20)])
        )
        assert maps.calibrate_many("s", [0.0, 0.25, 0.5, 0.625, 1.0]) == [0.0, 0.0, 0.0, 0.5, 1.0]
    finally:
        MAP_KINDS.unregister("overshoot")


def test_calibrate_many_keeps_missing_confidences_missing() -> None:
    maps = CalibrationMaps("isotonic").fit(decisions([(i / 20, i >= 10) for i in range(20)]))
    assert maps.calibrate_many("s", [None, 0.9, None, 0.0]) == [None, 1.0, None, 0.0]
    assert maps.calibrate_many("s", [None, None]) == [None, None]
    assert maps.calibrate_many("other", [0.9]) == [None]
    assert maps.calibrate("s", 0.9) == 1.0 and maps.calibrate("s", None) is None


def test_decision_of_a_scored_example() -> None:
    changed, stable = gold("a"), gold("b", ("deny",) * 8)
    assert decision(scored(changed, RIGHT, confidence=0.25)) == Decision(
        True, True, True, 0.25, "seq_prob"
    )
    assert decision(scored(stable, WRONG)) == Decision(True, False, False, None, "none")
    assert decision(scored(changed, SAYS_STABLE, confidence=0.5)).predicted_change is False


def test_fit_report_raw_and_mapped() -> None:
    calibration = decisions([(i / 20, i >= 10) for i in range(20)])
    maps = CalibrationMaps("isotonic").fit(calibration)
    test = decisions([(0.9, True), (0.05, True), (0.05, False)]) + [
        Decision(True, True, True, 0.9, "other"),
        Decision(False, True, True, 0.9, "s"),
        Decision(True, True, True, None, "s"),
    ]
    raw = fit_report("raw", None, "s", test, 20, bins=2)
    assert (raw.scale, raw.fitted, raw.calibration_points, raw.test_points) == ("raw", True, 20, 3)
    assert [(b.count, b.confidence, b.accuracy) for b in raw.bins] == [
        (2, 0.05, 0.5), (1, 0.9, 1.0)
    ]  # fmt: skip
    assert raw.ece == pytest.approx(2 / 3 * 0.45 + 1 / 3 * 0.1)
    mapped = fit_report("isotonic", maps, "s", test, 20, bins=2)
    # the map sends 0.9 to 1.0 and 0.05 to 0.0
    assert [(b.count, b.confidence) for b in mapped.bins] == [(2, 0.0), (1, 1.0)]
    assert mapped.ece == pytest.approx(2 / 3 * 0.5) and mapped.test_points == 3
    unmapped = fit_report("isotonic", maps, "other", test, 7, bins=2)
    assert unmapped == CalibrationFit("isotonic", False, 7, 1, None, [])


def record(
    g: Gold, said: Answer, seed: int, split: str, conf: float | None, source: str | None
) -> PredictionRecord:
    return answer_record(
        example_id=g.example_id, method="m", seed=seed, split=split, target="direct_receipt",
        raw_output="x", answer=said, confidence=conf, confidence_source=source,
    )  # fmt: skip


def test_calibrated_changes_fit_per_seed_and_source_on_the_calibration_split() -> None:
    golds = {}
    records = []
    for seed in (1, 0):
        # calibration: source "a" right above 0.5 (seed 0) or above 0.25 (seed 1); "b": two points
        cut = 0.5 if seed == 0 else 0.25
        for i in range(24):
            g = gold(f"cal{i}", split="calibration")
            golds[g.example_id] = g
            conf = (i + 0.5) / 24
            records.append(
                record(g, RIGHT if conf > cut else WRONG, seed, "calibration", conf, "a")
            )
        for i, said in enumerate((RIGHT, WRONG)):
            g = gold(f"calb{i}", split="calibration")
            golds[g.example_id] = g
            records.append(record(g, said, seed, "calibration", 0.5 + i / 10, "b"))
        for split, conf, source, said in [
            ("test_locked", 0.4, "a", RIGHT),
            ("dev", 0.7, "b", WRONG),
            ("test_locked", 0.3, "a", SAYS_STABLE),  # no predicted change: not listed
            ("dev", 0.1, "a", WRONG),
            ("dev", None, None, RIGHT),  # no confidence: listed under source "none"
        ]:
            g = gold(f"{split}-{conf}", split=split)
            golds[g.example_id] = g
            records.append(record(g, said, seed, split, conf, source))
    changes = calibrated_changes(records, golds)
    assert [(c.seed, c.example_id, c.split, c.source, c.confidence) for c in changes] == [
        (s, eid, split, src, conf)
        for s in (0, 1)
        for eid, split, src, conf in [
            ("test_locked-0.4", "test_locked", "a", 0.4),
            ("dev-0.7", "dev", "b", 0.7),
            ("dev-0.1", "dev", "a", 0.1),
            ("dev-None", "dev", "none", None),
        ]
    ]
    iso = [c.calibrated["isotonic"] for c in changes]
    # seed 0: 0.4 < 0.5; seed 1: 0.4 > 0.25
    assert iso == [0.0, None, 0.0, None, 1.0, None, 0.0, None]
    for c in changes:
        assert set(c.calibrated) == {"isotonic", "platt"}
        calib = [
            decision(score(golds[r.example_id], r))
            for r in records
            if r.seed == c.seed and r.split == "calibration"
        ]
        platt = CalibrationMaps("platt").fit(calib).calibrate(c.source, c.confidence)
        assert c.calibrated["platt"] == platt and (platt is None) == (c.source in ("b", "none"))
    # with fewer points required, "b" gets a map too: its two outcomes pool to 1/2
    few = calibrated_changes(records, golds, kinds=("isotonic",), min_points=2)
    assert [c.calibrated for c in few][:2] == [{"isotonic": 0.0}, {"isotonic": 0.5}]
