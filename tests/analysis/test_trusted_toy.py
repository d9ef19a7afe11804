"""The certification plane on the toy benchmark (reasonbench/strata/toy.py, built once per session):
stored states executed through the toy strata reproduce the gold receipts at the adaptive
certifier's cost, each case is executed once, and every refusal names the case and benchmark.
The same checks on the real ``benchmark=small`` are ``test_trusted.py``; these are fast enough
for every mutant of ``analysis/trusted.py`` (docs/testing.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from reasonbench.analysis.calibration import MIN_POINTS, calibrated_changes
from reasonbench.analysis.gold import Gold
from reasonbench.analysis.scoring import score
from reasonbench.analysis.trusted import TrustedPlane, TwoPlaneSettings, two_plane_curves
from reasonbench.analysis.two_plane import GRID, Certified, Route, TwoPlaneError
from reasonbench.core.certify import certify_adaptive, certify_exhaustive
from reasonbench.core.receipt import Receipt
from reasonbench.core.state import EvaluatorState
from reasonbench.io import read_split
from reasonbench.strata.base import Adjudicator, Stratum
from tests.analysis import synth
from tests.conftest import toy_strata


def locked(gold: dict[str, Gold], n: int = 12) -> list[str]:
    return sorted(i for i, g in gold.items() if g.split == "test_locked")[:n]


def counting(oracle: Callable[[int], str]) -> tuple[list[int], Callable[[int], str]]:
    """The cells asked, and the oracle that records them."""
    asked: list[int] = []

    def counted(mask: int) -> str:
        asked.append(mask)
        return oracle(mask)

    return asked, counted


def test_executions_reproduce_the_gold_at_the_adaptive_cost(toy_benchmark: Path) -> None:
    gold = synth.gold_of(toy_benchmark)
    plane = TrustedPlane(toy_benchmark, gold, toy_strata())
    ids = locked(gold)
    assert any(gold[i].receipt.stable for i in ids) and any(not gold[i].receipt.stable for i in ids)
    for example_id in ids:
        oracle, sources = plane.oracle(example_id)
        assert sources == gold[example_id].cube.sources
        exhaustive = certify_exhaustive(oracle, sources).receipt
        assert (exhaustive.old, exhaustive.new, exhaustive.sets) == (
            gold[example_id].receipt.old, gold[example_id].receipt.new, gold[example_id].receipt.sets
        )  # fmt: skip
        asked, counted = counting(oracle)
        certify_adaptive(counted, sources)
        done = plane.certify(example_id)
        assert done == Certified(example_id, len(asked), 1 << len(sources))
        assert plane.certify(example_id) is done  # executed once, then remembered


class Recording:
    """A stratum that notes the context each adjudicator is built from."""

    def __init__(self, inner: Stratum, contexts: list[object]) -> None:
        self.inner, self.contexts = inner, contexts

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]:
        return self.inner.state_from_json(data)

    def adjudicator(self, context: Mapping[str, Any]) -> Adjudicator:
        self.contexts.append(context)
        return self.inner.adjudicator(context)


def test_registered_strata_are_loaded_once_and_adjudicate_in_the_stored_context(
    toy_benchmark: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import reasonbench.analysis.trusted as trusted

    gold = synth.gold_of(toy_benchmark)
    by_stratum: dict[str, list[str]] = {}
    for i in locked(gold, len(gold)):
        by_stratum.setdefault(gold[i].stratum, []).append(i)
    assert sorted(by_stratum) == sorted(toy_strata())
    ids = [i for pair in zip(*(v[:6] for v in by_stratum.values()), strict=False) for i in pair]
    contexts: list[object] = []
    recording = {name: Recording(s, contexts) for name, s in toy_strata().items()}
    loaded: list[str] = []

    def load(name: str) -> Recording:
        loaded.append(name)
        return recording[name]

    monkeypatch.setattr(trusted, "load_stratum", load)
    given = TrustedPlane(toy_benchmark, gold, toy_strata())
    expected = [given.certify(i) for i in ids]
    assert loaded == []  # the strata given are used, none is loaded
    plane = TrustedPlane(toy_benchmark, gold)  # the registered strata, loaded when first needed
    assert [plane.certify(i) for i in ids] == expected
    assert sorted(loaded) == sorted(set(toy_strata()))  # each loaded once
    stored = {r["id"]: json.loads(r["context"]) for r in read_split(toy_benchmark, "test_locked")}
    assert contexts == [stored[i] for i in ids] and all(contexts)


def test_states_are_read_once_per_split_only_when_asked(
    toy_benchmark: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import reasonbench.analysis.trusted as trusted

    reads: list[tuple[str, tuple[str, ...]]] = []

    def read(data_dir: Path, split: str, columns: tuple[str, ...]) -> list[dict[str, object]]:
        reads.append((split, tuple(columns)))
        return read_split(data_dir, split, columns)

    monkeypatch.setattr(trusted, "read_split", read)
    gold = synth.gold_of(toy_benchmark)
    plane = TrustedPlane(toy_benchmark, gold, toy_strata())
    assert reads == []
    for example_id in locked(gold, 3):
        plane.certify(example_id)
    assert reads == [("test_locked", ("id", "stratum", "old_state", "new_state", "context"))]


def test_refusals_name_the_case_and_the_benchmark(toy_benchmark: Path) -> None:
    gold = synth.gold_of(toy_benchmark)
    changed = next(gold[i] for i in locked(gold, 100) if not gold[i].receipt.stable)
    r = changed.receipt
    wrong_sets = Receipt(r.sources, r.old, r.new, (7,) if r.sets != (7,) else (1,))
    wrong_new = Receipt(r.sources, r.old, r.old, ())
    for wrong in (wrong_sets, wrong_new):
        tampered = {**gold, changed.example_id: replace(changed, receipt=wrong)}
        with pytest.raises(TwoPlaneError) as refused:
            TrustedPlane(toy_benchmark, tampered, toy_strata()).certify(changed.example_id)
        assert str(refused.value) == (
            f"{changed.example_id}: trusted execution gives the receipt {r.family()} "
            f"({r.old} -> {r.new}), the stored gold says {wrong.family()} "
            f"({wrong.old} -> {wrong.new}), {toy_benchmark}"
        )
    plane = TrustedPlane(toy_benchmark, gold, toy_strata())
    with pytest.raises(TwoPlaneError) as unknown:
        plane.certify("no-such-id")
    assert str(unknown.value) == f"no-such-id: not an example of the benchmark, {toy_benchmark}"
    moved = {**gold, changed.example_id: replace(changed, split="dev")}
    with pytest.raises(TwoPlaneError) as missing:
        TrustedPlane(toy_benchmark, moved, toy_strata()).certify(changed.example_id)
    assert str(missing.value) == (
        f"{changed.example_id}: no stored state in split dev, {toy_benchmark}"
    )


def test_settings_refuse_the_calibration_split_and_unknown_maps() -> None:
    assert TwoPlaneSettings() == TwoPlaneSettings(("test_locked",), "isotonic")
    assert TwoPlaneSettings(("dev",), "platt").scale == "platt"
    message = "two-plane splits: the calibration split fits the maps and cannot be evaluated"
    with pytest.raises(TwoPlaneError) as refused:
        TwoPlaneSettings(splits=("dev", "calibration"))
    assert str(refused.value) == message
    with pytest.raises(ValueError, match="unknown calibration map 'isotonik'"):
        TwoPlaneSettings(scale="isotonik")
    with pytest.raises(TwoPlaneError) as curves:
        two_plane_curves([], {}, lambda i: Certified(i, 2, 8), splits=("calibration",))
    assert str(curves.value) == message


def test_curves_route_each_seeds_calibrated_predicted_changes(toy_benchmark: Path) -> None:
    gold = synth.gold_of(toy_benchmark)
    splits = ("calibration", "test_locked", "dev")
    records = synth.records(gold, "m", "direct_receipt", [3, 1], synth.constant(0.6), splits)
    asked: list[str] = []

    def certify(example_id: str) -> Certified:
        asked.append(example_id)
        return Certified(example_id, 3, 8)

    grid = (GRID[0], Route("0.50", 0.5), GRID[-1])
    curves = two_plane_curves(records, gold, certify, ("test_locked",), "platt", 10, grid)
    assert list(curves) == [1, 3]
    assert [p.threshold for p in curves[1]] == [None, 0.5, None]
    calibrated = {
        (c.seed, c.example_id): c.calibrated["platt"]
        for c in calibrated_changes(records, gold, ("platt",), 10)
    }
    for seed, points in curves.items():
        scored = [score(gold[r.example_id], r) for r in records
                  if r.seed == seed and r.split == "test_locked"]  # fmt: skip
        changes = [s for s in scored if s.predicted_change]
        assert [p.route for p in points] == ["accept all", "0.50", "certify all"]
        accept, half, everything = points
        assert accept.predicted_changes == len(changes) and accept.certified == 0
        assert everything.certified == len(changes) and everything.executions == 3 * len(changes)
        assert accept.gold_changes == sum(not s.gold.receipt.stable for s in scored)
        below = [
            s for s in changes if (v := calibrated[(seed, s.gold.example_id)]) is None or v < 0.5
        ]
        assert 0 < half.certified == len(below) < len(changes)
        assert half.exhaustive == 8 * len(below)
    assert sorted(set(asked)) == sorted(
        {r.example_id for r in records
         if r.split == "test_locked" and score(gold[r.example_id], r).predicted_change}
    )  # each case certified once, whatever the seeds  # fmt: skip


def test_curves_defaults_and_which_seeds_they_cover(toy_benchmark: Path) -> None:
    gold = synth.gold_of(toy_benchmark)
    both = synth.records(gold, "m", "direct_receipt", [1], synth.constant(0.6),
                         ("calibration", "test_locked"))  # fmt: skip
    calibration_only = synth.records(gold, "m", "direct_receipt", [5], synth.constant(0.6),
                                     ("calibration",))  # fmt: skip
    evaluated_only = synth.records(gold, "m", "direct_receipt", [7], synth.constant(0.6),
                                   ("test_locked",))  # fmt: skip
    records = both + calibration_only + evaluated_only

    def certify(example_id: str) -> Certified:
        return Certified(example_id, 3, 8)

    # a seed is a curve when it has evaluated records, calibration records or not
    curves = two_plane_curves(records, gold, certify)
    assert list(curves) == [1, 7]
    # the defaults: test_locked, the isotonic map, MIN_POINTS, the whole grid
    assert curves == two_plane_curves(records, gold, certify, ("test_locked",), "isotonic",
                                      MIN_POINTS, GRID)  # fmt: skip
    assert [p.route for p in curves[1]] == [r.label for r in GRID]
    # seed 7 has no calibration records, so no map: every change is certified at every τ
    assert all(p.uncalibrated == p.predicted_changes == p.certified for p in curves[7][1:])
    assert curves[1][1].uncalibrated == 0  # seed 1 has a map (τ = 0 certifies nothing)
    assert curves[1][1].certified == 0
    # more points required than the calibration split has: no map for seed 1 either
    strict = two_plane_curves(records, gold, certify, min_points=10**6)
    assert all(p.uncalibrated == p.predicted_changes for p in strict[1])
