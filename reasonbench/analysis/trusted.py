"""The certification plane of the two-plane audit: benchmark cases executed from their stored
states through their stratum's trusted adjudicator, and a method's two-plane curve.

:class:`TrustedPlane` reads ``old_state``, ``new_state`` and ``context`` of a case from the
benchmark's Parquet split, rebuilds the states with the registered stratum
(:func:`reasonbench.strata.registry.load_stratum`) and certifies the transition with the core's
adaptive certifier (:func:`reasonbench.core.certify.certify_adaptive`), counting every
adjudicator execution. The executed receipt must equal the stored gold receipt: a mismatch is a
:class:`~reasonbench.analysis.two_plane.TwoPlaneError`, never a silent number. A case's
certificate does not depend on the method, so one plane serves every method of a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.analysis.calibration import (
    CALIBRATION,
    MAP_KINDS,
    MIN_POINTS,
    CalibrationMaps,
    SeedMaps,
    calibrated,
    decision,
)
from reasonbench.analysis.gold import Gold
from reasonbench.analysis.scoring import Scored, score
from reasonbench.analysis.two_plane import (
    GRID,
    Case,
    Certified,
    Route,
    TwoPlaneError,
    TwoPlanePoint,
    two_plane_points,
)
from reasonbench.core.certify import certify_adaptive
from reasonbench.core.cube import Oracle, state_oracle
from reasonbench.io import read_split
from reasonbench.predictions.record import PredictionRecord
from reasonbench.strata.base import Stratum
from reasonbench.strata.registry import load_stratum

__all__ = [
    "DEFAULT_SPLITS",
    "STATE_COLUMNS",
    "TrustedPlane",
    "TwoPlaneSettings",
    "seed_points",
    "two_plane_curves",
]

DEFAULT_SPLITS: tuple[str, ...] = ("test_locked",)
STATE_COLUMNS = ("id", "stratum", "old_state", "new_state", "context")


@dataclass(frozen=True)
class TwoPlaneSettings:
    """What ``analyze`` runs the audit on: the evaluated ``splits`` (none: no audit) and the
    calibration map ``scale`` that routes (a registered map kind)."""

    splits: tuple[str, ...] = DEFAULT_SPLITS
    scale: str = "isotonic"

    def __post_init__(self) -> None:
        MAP_KINDS.get(self.scale)  # an unknown kind names the registered ones
        if CALIBRATION in self.splits:
            raise TwoPlaneError(
                "two-plane splits: the calibration split fits the maps and cannot be evaluated"
            )


class TrustedPlane:
    """Certifies the cases of the benchmark in ``data_dir`` (each at most once), through the
    registered strata unless ``strata`` gives the ones the benchmark was built with."""

    def __init__(
        self, data_dir: Path, gold: Mapping[str, Gold], strata: Mapping[str, Stratum] | None = None
    ) -> None:
        self.data_dir, self.gold = data_dir, gold
        self._rows: dict[str, dict[str, Mapping[str, Any]]] = {}  # split -> id -> stored row
        self._strata: dict[str, Stratum] = dict(strata or {})
        self._done: dict[str, Certified] = {}

    def _row(self, example_id: str) -> Mapping[str, Any]:
        g = self.gold.get(example_id)
        if g is None:
            raise TwoPlaneError(f"{example_id}: not an example of the benchmark, {self.data_dir}")
        if g.split not in self._rows:  # one split read at a time, only when asked for
            rows = read_split(self.data_dir, g.split, STATE_COLUMNS)
            self._rows[g.split] = {r["id"]: r for r in rows}
        row = self._rows[g.split].get(example_id)
        if row is None:
            raise TwoPlaneError(
                f"{example_id}: no stored state in split {g.split}, {self.data_dir}"
            )
        return row

    def oracle(self, example_id: str) -> tuple[Oracle, tuple[str, ...]]:
        """Cell mask -> verdict by executing the hybrid through the stratum's adjudicator."""
        row = self._row(example_id)
        name = row["stratum"]
        stratum = self._strata.get(name) or self._strata.setdefault(name, load_stratum(name))
        old, new = (stratum.state_from_json(json.loads(row[k])) for k in ("old_state", "new_state"))
        adjudicator = stratum.adjudicator(json.loads(row["context"]))
        return state_oracle(adjudicator, old, new), old.sources

    def certify(self, example_id: str) -> Certified:
        """The adaptive certificate of one case, checked against its stored gold receipt."""
        if example_id in self._done:
            return self._done[example_id]
        oracle, sources = self.oracle(example_id)
        calls = [0]

        def counted(mask: int) -> str:
            calls[0] += 1
            return oracle(mask)

        receipt = certify_adaptive(counted, sources).receipt
        gold = self.gold[example_id].receipt
        if (receipt.old, receipt.new, receipt.sets) != (gold.old, gold.new, gold.sets):
            raise TwoPlaneError(
                f"{example_id}: trusted execution gives the receipt {receipt.family()} "
                f"({receipt.old} -> {receipt.new}), the stored gold says {gold.family()} "
                f"({gold.old} -> {gold.new}), {self.data_dir}"
            )
        done = Certified(example_id, calls[0], 1 << len(sources))
        self._done[example_id] = done
        return done


def seed_points(
    evaluated: Sequence[Scored],
    maps: CalibrationMaps,
    certify: Callable[[str], Certified],
    grid: Sequence[Route] = GRID,
) -> list[TwoPlanePoint]:
    """The two-plane points of one seed: ``evaluated``, its scored rows of the evaluated splits,
    routed by their confidences calibrated with ``maps`` (that seed's, fitted on its calibration
    split)."""
    changes = [r for r in evaluated if r.predicted_change]
    cases = [
        Case(c, decision(r), certify(r.gold.example_id))
        for r, c in zip(changes, calibrated(changes, maps), strict=True)
    ]
    return two_plane_points(cases, sum(not r.gold.receipt.stable for r in evaluated), grid)


def two_plane_curves(
    records: Sequence[PredictionRecord],
    gold: Mapping[str, Gold],
    certify: Callable[[str], Certified],
    splits: Sequence[str] = DEFAULT_SPLITS,
    kind: str = "isotonic",
    min_points: int = MIN_POINTS,
    grid: Sequence[Route] = GRID,
) -> dict[int, list[TwoPlanePoint]]:
    """Seed -> the two-plane points of one method's ``records`` on ``splits``, confidences
    calibrated with the ``kind`` map fitted per seed and source on the calibration split.
    ``certify`` is usually :meth:`TrustedPlane.certify`. (``analyze`` scores its records once and
    calls :func:`seed_points` with the maps its calibration report fitted.)"""
    audit = TwoPlaneSettings(tuple(splits), kind)  # the settings' checks, written once
    by_seed: dict[int, list[Scored]] = {}
    for r in records:
        if r.split in audit.splits or r.split == CALIBRATION:
            by_seed.setdefault(r.seed, []).append(score(gold[r.example_id], r))
    out: dict[int, list[TwoPlanePoint]] = {}
    for seed, rows in sorted(by_seed.items()):
        evaluated = [r for r in rows if r.record.split in audit.splits]
        if evaluated:
            maps = SeedMaps([r for r in rows if r.record.split == CALIBRATION], min_points)
            out[seed] = seed_points(evaluated, maps[audit.scale], certify, grid)
    return out
