"""Everything ``analyze`` reports for one method and seed, from its scored examples per split.

* every registered metric per split;
* structural subgroups on the locked test, and by stratum and minimum receipt size on the
  cardinality test;
* paired consistency per control kind, per stratum and pooled (``analysis/consistency.py``);
* per confidence source: calibration maps fitted on ``calibration`` and their ECE and reliability
  on the locked test, and selective debt with thresholds fitted on ``calibration`` and applied to
  the locked test, on the raw confidence and on each configured calibrated scale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from reasonbench.analysis.calibration import (
    CALIBRATION,
    MAP_KINDS,
    CalibrationMaps,
    SeedMaps,
    decision,
    fit_report,
)
from reasonbench.analysis.consistency import paired_consistency
from reasonbench.analysis.methods import SettingsError
from reasonbench.analysis.metrics import MIN_RECEIPT_SIZE, STRATUM, subgroups, summarize
from reasonbench.analysis.record import SeedEntry, SourceCalibration
from reasonbench.analysis.scoring import Carried, Scored
from reasonbench.analysis.selective import Decision, SelectiveResult, selective_curve

__all__ = ["CONTROLS", "LOCKED", "RAW", "CalibrationSettings", "seed_entry"]

LOCKED, CONTROLS, CARDINALITY = "test_locked", "controls_locked", "cardinality_test"
RAW = "raw"


@dataclass(frozen=True)
class CalibrationSettings:
    maps: tuple[str, ...] = ("isotonic", "platt")  # registered map kinds fitted per source
    selective_on: tuple[str, ...] = (RAW, "isotonic")  # confidence scales debt thresholds use
    bins: int = 10  # reliability-diagram and ECE bins
    min_points: int = 20  # calibration predicted changes a source needs for a map

    def __post_init__(self) -> None:
        for kind in self.maps:
            MAP_KINDS.get(kind)  # an unknown kind names the registered ones
        unknown = [s for s in self.selective_on if s != RAW and s not in self.maps]
        if unknown:
            raise SettingsError(
                f"selective_on {unknown}: a confidence scale is 'raw' or one of the fitted "
                f"calibration maps {list(self.maps)}"
            )


def _curves(
    calib: Sequence[Decision], test: Sequence[Decision], allow_mixed: bool
) -> dict[str, list[SelectiveResult]]:
    """Per confidence source (or one pooled curve when mixing is allowed)."""
    sources = sorted({d.source for d in [*calib, *test]})
    groups = ["+".join(sources)] if allow_mixed else sources
    out = {}
    for source in groups:
        c = [d for d in calib if allow_mixed or d.source == source]
        t = [d for d in test if allow_mixed or d.source == source]
        out[source] = selective_curve(c, t, allow_mixed=allow_mixed)
    return out


def _rescaled(rows: Sequence[Decision], maps: CalibrationMaps) -> list[Decision]:
    """``rows`` of the sources ``maps`` calibrates, with their calibrated confidences."""
    out = []
    for source in maps.sources:
        mine = [r for r in rows if r.source == source]
        values = maps.calibrate_many(source, [r.confidence for r in mine])
        out += [replace(r, confidence=v) for r, v in zip(mine, values, strict=True)]
    return out


def _confidence(
    splits: Mapping[str, Sequence[Scored]],
    settings: CalibrationSettings,
    allow_mixed: bool,
    fitted: SeedMaps,
) -> tuple[dict[str, dict[str, list[SelectiveResult]]], dict[str, SourceCalibration]]:
    if CALIBRATION not in splits or LOCKED not in splits:
        return {}, {}
    calib = fitted.decisions
    test = [decision(r) for r in splits[LOCKED]]
    maps = {k: fitted[k] for k in settings.maps}
    selective = {}
    for scale in settings.selective_on:
        if scale == RAW:
            selective[RAW] = _curves(calib, test, allow_mixed)
        elif scale in maps and maps[scale].sources:
            m = maps[scale]
            selective[scale] = _curves(_rescaled(calib, m), _rescaled(test, m), allow_mixed)
    calibration = {}
    for source in sorted({d.source for d in calib if d.confidence is not None}):
        points = sum(
            d.source == source and d.predicted_change and d.confidence is not None for d in calib
        )
        calibration[source] = SourceCalibration(
            fit_report(RAW, None, source, test, points, settings.bins),
            {k: fit_report(k, m, source, test, points, settings.bins) for k, m in maps.items()},
        )
    return selective, calibration


def seed_entry(
    splits: Mapping[str, Sequence[Scored]],
    fields: Carried,
    settings: CalibrationSettings,
    allow_mixed: bool,
    maps: SeedMaps,
) -> SeedEntry:
    """``maps``: the seed's calibration maps, fitted on ``splits["calibration"]`` (shared with the
    two-plane audit, so a map is fitted once per seed)."""
    summaries = {name: summarize(rows, fields) for name, rows in splits.items()}
    sources = sorted({r.record.confidence_source or "none" for v in splits.values() for r in v})
    locked, cardinality = splits.get(LOCKED), splits.get(CARDINALITY)
    consistency = None
    if locked is not None and CONTROLS in splits:
        parents = {r.gold.example_id: r for r in locked}
        consistency = paired_consistency(parents, splits[CONTROLS])
    selective, calibration = _confidence(splits, settings, allow_mixed, maps)
    return SeedEntry(
        splits=summaries,
        confidence_sources=sources,
        subgroups=subgroups(locked, fields) if locked is not None else {},
        cardinality_subgroups=(
            subgroups(cardinality, fields, (STRATUM, MIN_RECEIPT_SIZE))
            if cardinality is not None
            else {}
        ),
        consistency=consistency,
        selective=selective,
        calibration=calibration,
    )
