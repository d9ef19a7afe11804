"""Per-source calibration maps (ADR-054): confidence → probability that a predicted change's
account is right, fitted on the ``calibration`` split with scikit-learn.

* Maps are fitted **per confidence source** and never applied to another source.
* A calibrated value is ``None`` — not the raw value — when the source has no map (too few
  points, or one outcome only), so "calibrated" and "not calibrated" stay distinguishable.
* Map kinds are registered objects (:data:`MAP_KINDS`): ``isotonic`` (monotone step function)
  and ``platt`` (logistic in the confidence). Both are non-decreasing in the confidence.

:class:`SeedMaps` holds the maps of one method and seed, each kind fitted at most once, so
``analyze``'s calibration report and its two-plane audit share them. :func:`calibrated_changes` is
the API for consumers outside ``analyze`` (``scripts/bench_two_plane.py``): given one method's
records and gold, each predicted change with its calibrated confidences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from reasonbench.analysis.gold import Gold
from reasonbench.analysis.record import CalibrationFit, ReliabilityBin
from reasonbench.analysis.scoring import Scored, score
from reasonbench.analysis.selective import Decision
from reasonbench.predictions.record import PredictionRecord
from reasonbench.registry import Registry

__all__ = [
    "CALIBRATION",
    "MAP_KINDS",
    "MIN_POINTS",
    "CalibratedChange",
    "CalibrationMaps",
    "SeedMaps",
    "calibrated",
    "calibrated_changes",
    "decision",
    "ece",
    "fit_report",
    "reliability",
]

MIN_POINTS = 20
CALIBRATION = "calibration"
Map = Callable[[np.ndarray], np.ndarray]  # confidences -> calibrated probabilities
Fitter = Callable[[np.ndarray, np.ndarray], Map]  # (confidences, 0/1 outcomes) -> map


def _isotonic(x: np.ndarray, y: np.ndarray) -> Map:
    model = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip")
    model.fit(x, y)
    return lambda c: np.asarray(model.predict(c), dtype=np.float64)


def _platt(x: np.ndarray, y: np.ndarray) -> Map:
    # Platt scaling: a logistic regression on the confidence; a decreasing fit would reverse
    # the ranking the confidence claims, so the slope is floored at 0 (then a constant map)
    model = LogisticRegression(C=1e6, solver="newton-cholesky")  # ~unregularized, as Platt
    model.fit(x.reshape(-1, 1), y)
    slope = max(0.0, float(model.coef_[0][0]))
    intercept = (
        float(model.intercept_[0]) if slope > 0 else float(np.log(y.mean() / (1 - y.mean())))
    )
    return lambda c: 1.0 / (1.0 + np.exp(-(slope * np.asarray(c, dtype=np.float64) + intercept)))


MAP_KINDS: Registry[Fitter] = Registry("calibration map")
MAP_KINDS.register("isotonic", _isotonic)
MAP_KINDS.register("platt", _platt)


class CalibrationMaps:
    """The maps of one kind, one per confidence source with enough signal."""

    def __init__(self, kind: str = "isotonic", min_points: int = MIN_POINTS) -> None:
        self.kind, self.min_points = kind, min_points
        self._fitter = MAP_KINDS.get(kind)
        self._maps: dict[str, Map] = {}
        self.points: dict[str, int] = {}

    def fit(self, rows: Sequence[Decision]) -> CalibrationMaps:
        by_source: dict[str, list[Decision]] = {}
        for r in rows:
            if r.predicted_change and r.confidence is not None:
                by_source.setdefault(r.source, []).append(r)
        for source in sorted(by_source):
            points = by_source[source]
            self.points[source] = len(points)
            if len(points) < self.min_points or len({r.account_correct for r in points}) < 2:
                continue  # too little signal: leave the source uncalibrated rather than guess
            x = np.array([r.confidence for r in points], dtype=np.float64)
            y = np.array([float(r.account_correct) for r in points])
            self._maps[source] = self._fitter(x, y)
        return self

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted(self._maps))

    def calibrate(self, source: str, confidence: float | None) -> float | None:
        """The calibrated confidence; ``None`` without a map for ``source`` or a confidence."""
        return self.calibrate_many(source, [confidence])[0]

    def calibrate_many(
        self, source: str, confidences: Sequence[float | None]
    ) -> list[float | None]:
        """:meth:`calibrate` of many confidences of one source, in one call of the map."""
        fitted = self._maps.get(source)
        known = [i for i, c in enumerate(confidences) if c is not None]
        out: list[float | None] = [None] * len(confidences)
        if fitted is None or not known:
            return out
        values = np.clip(fitted(np.array([confidences[i] for i in known], dtype=np.float64)), 0, 1)
        for i, v in zip(known, values, strict=True):
            out[i] = float(v)
        return out


class SeedMaps:
    """The calibration maps of one method and seed: each kind fitted at most once, on the seed's
    ``calibration`` rows, when first asked for (a kind nobody reads is never fitted)."""

    def __init__(self, calibration: Sequence[Scored], min_points: int = MIN_POINTS) -> None:
        self.decisions = [decision(r) for r in calibration]
        self.min_points = min_points
        self._fitted: dict[str, CalibrationMaps] = {}

    def __getitem__(self, kind: str) -> CalibrationMaps:
        if kind not in self._fitted:
            self._fitted[kind] = CalibrationMaps(kind, self.min_points).fit(self.decisions)
        return self._fitted[kind]


def calibrated(rows: Sequence[Scored], maps: CalibrationMaps) -> list[float | None]:
    """The calibrated confidence of each of ``rows`` (``None`` where its source has no map), in
    one call of the map per source."""
    sources = [r.record.confidence_source or "none" for r in rows]
    out: list[float | None] = [None] * len(rows)
    for source in sorted(set(sources)):
        at = [i for i, src in enumerate(sources) if src == source]
        values = maps.calibrate_many(source, [rows[i].record.confidence for i in at])
        for i, v in zip(at, values, strict=True):
            out[i] = v
    return out


def decision(r: Scored) -> Decision:
    """A scored example as selective evaluation and calibration see it."""
    return Decision(
        predicted_change=r.predicted_change,
        account_correct=r.account_correct,
        gold_changed=not r.gold.receipt.stable,
        confidence=r.record.confidence,
        source=r.record.confidence_source or "none",
    )


def reliability(
    confidences: Sequence[float], outcomes: Sequence[bool], bins: int = 10
) -> list[ReliabilityBin]:
    """Equal-width bins over [0, 1]: count, mean confidence and accuracy per bin."""
    out = []
    edges = np.linspace(0.0, 1.0, bins + 1)
    conf = np.asarray(confidences, dtype=np.float64)
    hit = np.asarray(outcomes, dtype=np.float64)
    which = np.clip(np.searchsorted(edges, conf, side="right") - 1, 0, bins - 1)
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        out.append(
            ReliabilityBin(
                float(edges[b]),
                float(edges[b + 1]),
                n,
                float(conf[inside].mean()) if n else None,
                float(hit[inside].mean()) if n else None,
            )
        )
    return out


def ece(bins: Sequence[ReliabilityBin]) -> float | None:
    """Expected calibration error: Σ_b (n_b / N) · |accuracy_b − confidence_b|."""
    total = sum(b.count for b in bins)
    if not total:
        return None
    return float(
        sum(b.count / total * abs((b.accuracy or 0.0) - (b.confidence or 0.0)) for b in bins)
    )


def fit_report(
    scale: str,
    maps: CalibrationMaps | None,
    source: str,
    test: Sequence[Decision],
    calibration_points: int,
    bins: int,
) -> CalibrationFit:
    """ECE and reliability of ``source``'s test predicted changes on one scale (raw: no maps)."""
    rows = [
        r for r in test if r.source == source and r.predicted_change and r.confidence is not None
    ]
    if maps is not None and source not in maps.sources:
        return CalibrationFit(scale, False, calibration_points, len(rows), None, [])
    raw = [r.confidence for r in rows]
    values = raw if maps is None else maps.calibrate_many(source, raw)
    kept = [(v, r.account_correct) for v, r in zip(values, rows, strict=True) if v is not None]
    table = reliability([v for v, _ in kept], [o for _, o in kept], bins)
    return CalibrationFit(scale, True, calibration_points, len(rows), ece(table), table)


@dataclass(frozen=True)
class CalibratedChange:
    """One predicted change of a method: its raw confidence and, per map kind, the calibrated
    confidence (``None`` where its source has no map)."""

    example_id: str
    seed: int
    split: str
    source: str
    confidence: float | None
    calibrated: Mapping[str, float | None]


def calibrated_changes(
    records: Sequence[PredictionRecord],
    gold: Mapping[str, Gold],
    kinds: Sequence[str] = ("isotonic", "platt"),
    min_points: int = MIN_POINTS,
) -> list[CalibratedChange]:
    """Every predicted change of one method's ``records`` (any split but ``calibration``) with its
    per-source calibrated confidence, maps fitted per seed on that seed's calibration records."""
    by_seed: dict[int, list[PredictionRecord]] = {}
    for rec in records:
        by_seed.setdefault(rec.seed, []).append(rec)
    out = []
    for seed in sorted(by_seed):
        scored = [score(gold[r.example_id], r) for r in by_seed[seed]]
        maps = SeedMaps([s for s in scored if s.record.split == CALIBRATION], min_points)
        changes = [s for s in scored if s.record.split != CALIBRATION and s.predicted_change]
        values = {k: calibrated(changes, maps[k]) for k in kinds}
        for i, s in enumerate(changes):
            out.append(
                CalibratedChange(
                    s.gold.example_id,
                    seed,
                    s.record.split,
                    s.record.confidence_source or "none",
                    s.record.confidence,
                    {k: values[k][i] for k in kinds},
                )
            )
    return out
