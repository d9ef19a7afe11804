"""Learning curves of training runs: dev accuracy against training tokens, as a table here and a
figure in :mod:`reasonbench.reports.figures` (``reasonbench tables curves=[<run dir>, ...]``).

The points are the ones ``reasonbench train`` logs with ``eval.every`` set
(:mod:`reasonbench.infer.curve`): one ``train_log.jsonl`` line per point, the sample's exact
receipt, endpoint and revised-verdict accuracy after ``tokens`` training tokens. A run is named by
its trained run's method (or its directory when unfinished).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reasonbench.reports.render import Table

__all__ = ["MEASURES", "CurveError", "RunCurve", "curve_table", "percent", "read_curve"]

MEASURES = (("exact_receipt", "exact receipt"), ("endpoints", "endpoints"),
            ("revised_verdict", "revised verdict"))  # fmt: skip


class CurveError(ValueError):
    """A run directory without a readable learning curve; names it."""


@dataclass(frozen=True)
class RunCurve:
    method: str
    split: str
    examples: int
    points: tuple[dict[str, float | int | None], ...]  # step, tokens and the measures


def read_curve(run_dir: Path) -> RunCurve:
    log = run_dir / "train_log.jsonl"
    if not log.is_file():
        raise CurveError(f"{log} not found: curves=[...] names training run directories")
    points, split, examples = [], None, 0
    for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            raise CurveError(f"{log}:{number}: not JSON") from None
        point = entry.get("eval") if isinstance(entry, dict) else None
        if not isinstance(point, dict):
            continue
        split, examples = str(point.get("split")), int(point.get("examples") or 0)
        points.append({"step": entry["step"], "tokens": entry["tokens"],
                       **{key: point.get(key) for key, _ in MEASURES}})  # fmt: skip
    if not points:
        raise CurveError(f"{log} has no learning-curve points (train with eval.every > 0)")
    from reasonbench.models.trained import RunFileError, TrainedRun

    method = run_dir.name  # an unfinished run has no summary yet
    if TrainedRun.finished(run_dir):
        try:
            method = TrainedRun.read(run_dir).method
        except RunFileError as exc:
            raise CurveError(str(exc)) from None
    return RunCurve(method, str(split), examples, tuple(points))


def percent(value: float | int | None) -> float | None:
    return None if value is None else 100 * float(value)


def curve_table(curves: Sequence[RunCurve]) -> Table:
    rows = [
        [c.method, p["step"], p["tokens"], *(percent(p[key]) for key, _ in MEASURES)]
        for c in curves
        for p in c.points
    ]
    splits = sorted({f"{c.split} ({c.examples} examples)" for c in curves}) or ["—"]
    return Table(
        "learning_curve",
        "Learning curves: greedy accuracy on a fixed sample while training (%)",
        ["method", "step", "training tokens", *(label for _, label in MEASURES)],
        rows,
        note=f"Sample: {', '.join(splits)}, the same rows for every run (infer/curve.py). "
        "One point per eval.every optimizer steps; decoded as `reasonbench predict` decodes.",
    )
