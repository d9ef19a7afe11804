"""What both harness integrations share: the rows a task evaluates, what the model is asked, how
one output is read, recorded and scored, and the ratio every harness metric aggregates with.

A harness task never scores on its own terms. Each output goes through the same path as every
answer reasonbench records (:func:`reasonbench.predictions.answers.answer_record` over the
target's frozen strict parser) and is scored by ``analyze``'s own functions
(:func:`reasonbench.analysis.scoring.score` and every registered metric that applies to the
target), so a harness's number for a split equals ``analyze``'s for the same outputs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reasonbench.analysis.gold import GOLD_COLUMNS, gold_from_row
from reasonbench.analysis.metrics import METRICS, applicable
from reasonbench.analysis.scoring import carried, score
from reasonbench.io import data_identity, read_manifest, read_split
from reasonbench.models.prompting import model_input
from reasonbench.predictions.answers import row_record
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import get_target, parse_target

__all__ = [
    "DEFAULT_SPLIT",
    "Observation",
    "TaskSpec",
    "answer_text",
    "harness_record",
    "metric_names",
    "observations",
    "observe",
    "prompt_of",
    "provenance",
    "ratio",
    "task_rows",
]

DEFAULT_SPLIT = "test_locked"
ANSWER = "answer"  # a task row's gold answer in its target's format (few-shot examples use it)

Observation = tuple[float, float] | None
"""What one example adds to a metric: (numerator, denominator), or ``None`` when not counted."""


@dataclass(frozen=True)
class TaskSpec:
    """One harness task: a target answered on one split of a local build."""

    data_dir: Path
    split: str
    target: str
    trim: bool = True  # the parser reads the answer trimmed, as evaluate's judges (see answer_text)
    instruction: bool = False  # the target's task instruction is shown before the prompt

    def __post_init__(self) -> None:
        get_target(self.target)  # an unknown target names the registered ones


def task_rows(spec: TaskSpec) -> list[dict[str, Any]]:
    """The split's rows with what scoring needs (gold) and the gold answer of the target."""
    column = f"target_{spec.target}"
    rows = read_split(spec.data_dir, spec.split, [*GOLD_COLUMNS, "prompt", column])
    for row in rows:
        row[ANSWER] = row.pop(column)
    return rows


def prompt_of(prompt: str) -> str:
    """What the model is asked: the frozen prompt and the answer cue, as trained models see it."""
    return model_input(prompt)


def provenance(data_dir: Path) -> dict[str, Any]:
    """The build a task reads, as its log records it (an import checks it against its own)."""
    from reasonbench import __version__

    identity = data_identity(read_manifest(data_dir, required=True))
    return {
        "data_dir": str(data_dir.resolve()),
        "manifest_sha256": identity.manifest_sha256,
        "benchmark": identity.benchmark,
        "reasonbench": __version__,
    }


@cache
def _labels(stratum: str) -> frozenset[str]:
    from reasonbench.strata.registry import load_stratum

    return load_stratum(stratum).labels


def answer_text(raw: str, target: str, trim: bool) -> str:
    """The text the frozen parser reads: with ``trim``, a leading reasoning block dropped and
    cut to the target's lines (as ``evaluate`` reads its judges); else the whole output (as
    ``predict`` reads a trained run)."""
    from reasonbench.targets.trim import trim_answer

    return trim_answer(raw, target) if trim else raw


def harness_record(
    row: Mapping[str, Any], raw: str, target: str, trim: bool, method: str, seed: int
) -> PredictionRecord:
    """One harness output as a prediction record: ``raw_output`` kept whole, the rest decided by
    the target's frozen strict parser."""
    answer = parse_target(target, answer_text(raw, target, trim), _labels(row["stratum"]))
    return row_record(row, method, seed, target, raw, answer)


def metric_names(target: str) -> list[str]:
    """The registered metrics that apply to ``target``, in report order."""
    return [m.name for m in applicable(carried(target))]


def observations(row: Mapping[str, Any], record: PredictionRecord) -> dict[str, Observation]:
    """What one record adds to every metric that applies to its target (as ``analyze``)."""
    scored = score(gold_from_row(row), record)
    return {name: METRICS.get(name).observe(scored) for name in metric_names(record.target)}


def observe(row: Mapping[str, Any], raw: str, target: str, trim: bool) -> dict[str, Observation]:
    """What one harness output adds to every metric that applies to its target."""
    return observations(row, harness_record(row, raw, target, trim, "harness", 0))


def ratio(observations: Iterable[Observation | Sequence[float]]) -> float:
    """Σ numerator / Σ denominator over the counted examples (``analyze``'s rate); NaN for 0/0.
    A harness may hand an observation back as a list (after a JSON round trip)."""
    numerator = denominator = 0.0
    for seen in observations:
        if seen is not None:
            numerator += float(seen[0])
            denominator += float(seen[1])
    return numerator / denominator if denominator else math.nan
