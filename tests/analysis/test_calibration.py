"""Calibration maps (ADR-054): per source, monotone, None where no map exists; ECE and
reliability; the calibrated-confidence API; selective debt on a calibrated scale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.calibration import (
    MAP_KINDS,
    CalibrationMaps,
    calibrated_changes,
    ece,
    reliability,
)
from reasonbench.analysis.selective import Decision
from tests.analysis import synth


def decisions(points: list[tuple[float, bool]], source: str = "seq_prob") -> list[Decision]:
    return [Decision(True, right, True, conf, source) for conf, right in points]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(list(MAP_KINDS)),
    st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=20, max_size=80),
    st.lists(st.floats(0, 1), min_size=2, max_size=20),
)
def test_maps_are_monotone_and_in_range(
    kind: str, points: list[tuple[float, bool]], probes: list[float]
) -> None:
    maps = CalibrationMaps(kind).fit(decisions(points))
    if len({r for _, r in points}) < 2:
        assert maps.sources == ()  # one outcome only: no map, rather than a guess
        return
    values = [maps.calibrate("seq_prob", p) for p in sorted(probes)]
    assert all(v is not None and 0.0 <= v <= 1.0 for v in values)
    assert all(a <= b + 1e-12 for a, b in zip(values, values[1:], strict=False))  # type: ignore[operator]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list(MAP_KINDS)), st.floats(0, 1), st.text(min_size=1, max_size=8))
def test_unmapped_sources_and_missing_confidences_are_none(
    kind: str, probe: float, other: str
) -> None:
    rows = decisions([(i / 40, i % 3 != 0) for i in range(40)])
    maps = CalibrationMaps(kind).fit(rows)
    assert maps.sources == ("seq_prob",)
    assert maps.calibrate("seq_prob", None) is None
    if other != "seq_prob":
        assert maps.calibrate(other, probe) is None  # never the raw value
    few = CalibrationMaps(kind).fit(rows[:10])
    assert few.calibrate("seq_prob", probe) is None  # below min_points


def test_maps_never_cross_sources() -> None:
    rows = decisions([(i / 40, i >= 20) for i in range(40)], "a") + decisions(
        [(i / 40, i < 20) for i in range(40)], "b"
    )
    maps = CalibrationMaps("isotonic").fit(rows)
    high_a, high_b = maps.calibrate("a", 0.9), maps.calibrate("b", 0.9)
    # b's confidences run against its outcomes: its own (monotone) map is flat, a's is not
    assert high_a == 1.0 and high_b == pytest.approx(0.5)


def test_ece_and_reliability_known_values() -> None:
    bins = reliability([0.05, 0.15, 0.95, 0.95], [False, True, True, False], bins=10)
    assert [b.count for b in bins] == [1, 1, 0, 0, 0, 0, 0, 0, 0, 1 + 1]
    # |0 - 0.05|·1/4 + |1 - 0.15|·1/4 + |0.5 - 0.95|·2/4
    assert ece(bins) == pytest.approx(0.05 / 4 + 0.85 / 4 + 0.45 / 2)
    assert ece(reliability([], [])) is None


def test_calibrated_changes_api_and_calibrated_selective(
    toy_benchmark: Path, tmp_path: Path
) -> None:
    gold = synth.gold_of(toy_benchmark)
    splits = ["calibration", "test_locked", "dev"]
    records = synth.records(gold, "m", "direct_receipt", range(2), synth.constant(0.7), splits)
    synth.write(tmp_path / "m.jsonl", records)
    changes = calibrated_changes(records, gold)
    assert changes and {c.split for c in changes} <= {"test_locked", "dev"}
    assert {c.source for c in changes} == {"seq_prob"} and {c.seed for c in changes} == {0, 1}
    for c in changes:
        assert set(c.calibrated) == {"isotonic", "platt"}
        assert all(v is None or 0.0 <= v <= 1.0 for v in c.calibrated.values())
    assert any(v is not None for c in changes for v in c.calibrated.values())
    metrics = analyze(toy_benchmark, tmp_path, replicates=50)
    seed = metrics["methods"]["m"]["seeds"]["0"]
    assert set(seed["selective"]) == {"raw", "isotonic"}
    fits = seed["calibration"]["seq_prob"]
    assert fits["raw"]["fitted"] and set(fits["maps"]) == {"isotonic", "platt"}
    assert fits["maps"]["isotonic"]["ece"] is None or 0 <= fits["maps"]["isotonic"]["ece"] <= 1
    assert sum(b["count"] for b in fits["raw"]["bins"]) == fits["raw"]["test_points"]
    assert np.isfinite(fits["raw"]["ece"])
