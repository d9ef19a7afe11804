"""Per-source calibration maps: confidence → probability that the account is right.

A map is fitted per ``confidence_source`` (isotonic regression) and is never applied to
another source; ``calibrate`` returns ``None`` — not the raw value — when no map exists for the
source, so "calibrated" and "not calibrated" stay distinguishable (ADR-054 rule 3).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.isotonic import IsotonicRegression

from reasonbench.analysis.selective import Decision

MIN_POINTS = 20


class CalibrationMaps:
    def __init__(self) -> None:
        self._maps: dict[str, IsotonicRegression] = {}

    def fit(self, rows: Sequence[Decision]) -> CalibrationMaps:
        by_source: dict[str, list[Decision]] = {}
        for r in rows:
            if r.predicted_change and r.confidence is not None:
                by_source.setdefault(r.source, []).append(r)
        for source in sorted(by_source):
            points = by_source[source]
            outcomes = {r.account_correct for r in points}
            if len(points) < MIN_POINTS or len(outcomes) < 2:
                continue  # too little signal: leave the source uncalibrated rather than guess
            model = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
            model.fit(
                np.array([r.confidence for r in points], dtype=float),
                np.array([float(r.account_correct) for r in points]),
            )
            self._maps[source] = model
        return self

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted(self._maps))

    def calibrate(self, source: str, confidence: float | None) -> float | None:
        model = self._maps.get(source)
        if model is None or confidence is None:
            return None
        return float(model.predict(np.array([confidence], dtype=float))[0])
