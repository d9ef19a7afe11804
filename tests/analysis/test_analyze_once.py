"""``analyze`` computes each thing once (issue 32): every record is scored once, and each
calibration map kind is fitted once per method and seed, the calibration report, selective debt
and the two-plane audit all reading the same scored rows and maps."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from reasonbench.analysis import scoring
from reasonbench.analysis.analyze import analyze
from reasonbench.analysis.calibration import CalibrationMaps
from reasonbench.analysis.gold import Gold
from reasonbench.analysis.seed import CalibrationSettings
from reasonbench.analysis.selective import Decision
from reasonbench.analysis.trusted import TwoPlaneSettings
from reasonbench.predictions.record import PredictionRecord
from tests.analysis import synth
from tests.conftest import toy_strata

SPLITS = ("calibration", "test_locked", "dev")
METHODS = {"m-receipt": "direct_receipt", "m-cube": "cube", "m-verdict": "direct_verdict"}
SEEDS = (0, 1)


@pytest.mark.parametrize(
    ("maps", "selective_on", "scale"),
    [
        (("isotonic", "platt"), ("raw", "isotonic"), "isotonic"),  # the audit's scale is reported
        (("platt",), ("raw", "platt"), "isotonic"),  # the audit's scale only routes
    ],
)
def test_each_record_scored_once_each_map_fitted_once(
    toy_benchmark: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    maps: tuple[str, ...],
    selective_on: tuple[str, ...],
    scale: str,
) -> None:
    gold = synth.gold_of(toy_benchmark)
    records: list[PredictionRecord] = []
    for method, target in METHODS.items():
        mine = synth.records(gold, method, target, SEEDS, synth.constant(0.7), SPLITS)
        synth.write(tmp_path / f"{method}.jsonl", mine)
        records += mine

    scored: Counter[tuple[str, int, str, str]] = Counter()
    original = scoring.score

    def counted_score(g: Gold, record: PredictionRecord) -> scoring.Scored:
        scored[(record.method, record.seed, record.split, record.example_id)] += 1
        return original(g, record)

    # every module that imported ``score`` by name, so a new caller anywhere is counted too
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name.startswith("reasonbench") and getattr(module, "score", None) is original:
            monkeypatch.setattr(module, "score", counted_score)

    # (kind, fitted rows) -> fits; synth draws each method's and seed's confidences from its own
    # random stream, so two (method, seed) pairs never fit the same rows
    fits: Counter[tuple[str, tuple[Decision, ...]]] = Counter()
    fit = CalibrationMaps.fit

    def counted_fit(self: CalibrationMaps, rows: Sequence[Decision]) -> CalibrationMaps:
        fits[(self.kind, tuple(rows))] += 1
        return fit(self, rows)

    monkeypatch.setattr(CalibrationMaps, "fit", counted_fit)

    metrics = analyze(
        toy_benchmark,
        tmp_path,
        replicates=20,
        calibration=CalibrationSettings(maps=maps, selective_on=selective_on),
        two_plane=TwoPlaneSettings(scale=scale),
        strata=toy_strata(),
    )

    assert sorted(scored) == sorted((r.method, r.seed, r.split, r.example_id) for r in records)
    assert set(scored.values()) == {1}, "a record was scored more than once"
    assert set(fits.values()) == {1}, "a calibration map was fitted more than once"
    audited = [m for m, t in METHODS.items() if t != "direct_verdict"]
    kinds = {m: {*maps, scale} if m in audited else set(maps) for m in METHODS}
    assert len(fits) == sum(len(kinds[m]) for m in METHODS) * len(SEEDS)
    assert Counter(kind for kind, _ in fits) == Counter(
        k for m in METHODS for k in kinds[m] for _ in SEEDS
    )
    # the shared maps did reach both consumers: the report and the audit
    for method in METHODS:
        for seed in map(str, SEEDS):
            entry = metrics["methods"][method]["seeds"][seed]
            assert set(entry["calibration"]["seq_prob"]["maps"]) == set(maps)
            # an audited seed has one point per route of the grid; a verdict method has none
            assert bool(entry["two_plane"]) == (method in audited)
