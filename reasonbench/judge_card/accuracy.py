"""The ordinary metrics beside PIS: the judge's base-prompt answers scored by the analysis code.

The base prompts of the stress suite *are* benchmark prompts, so their answers are prediction
records like any method's; they are scored with :func:`reasonbench.analysis.scoring.score` and
summarized with :func:`reasonbench.analysis.metrics.summarize` (every registered metric that
applies to the judge's target; a parse failure is a wrong answer), and the answers on the items'
locked controls give paired consistency
(:func:`reasonbench.analysis.consistency.paired_consistency`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.analysis.consistency import paired_consistency
from reasonbench.analysis.gold import load_gold
from reasonbench.analysis.jsontypes import to_json
from reasonbench.analysis.metrics import summarize
from reasonbench.analysis.scoring import carried, score
from reasonbench.io import read_split, split_names
from reasonbench.predictions.answers import answer_record
from reasonbench.predictions.record import PredictionRecord
from reasonbench.targets import ParseResult

__all__ = ["CONTROLS", "accuracy_section", "control_rows", "prediction_record"]

CONTROLS = "controls_locked"


def control_rows(data_dir: Path, parents: set[str]) -> list[dict[str, Any]]:
    """The locked controls (id, prompt, split) of the given parent items, if generated."""
    if CONTROLS not in split_names(data_dir, with_cardinality=False):
        return []
    rows = read_split(data_dir, CONTROLS, ["id", "split", "prompt", "parent_id"])
    return [r for r in rows if r["parent_id"] in parents]


def prediction_record(
    example_id: str, split: str, method: str, target: str, text: str, parsed: ParseResult
) -> PredictionRecord:
    """A prediction record of one answer, as ``reasonbench analyze`` would read it."""
    return answer_record(
        example_id=example_id,
        method=method,
        seed=0,
        split=split,
        target=target,
        raw_output=text,
        answer=parsed,
    )


def accuracy_section(
    data_dir: Path,
    method: str,
    target: str,
    items: Sequence[tuple[str, str, str]],  # (example id, split, prompt)
    controls: Sequence[tuple[str, str, str]],
    answers: Mapping[str, Sequence[str]],
    parsed: Mapping[str, Sequence[ParseResult]],
) -> dict[str, Any]:
    """Metrics on the items' first answers; consistency per control type on their controls."""
    splits = tuple(sorted({s for _, s, _ in items} | {s for _, s, _ in controls}))
    gold = load_gold(data_dir, splits)

    def records(rows: Sequence[tuple[str, str, str]]) -> list[PredictionRecord]:
        return [
            prediction_record(i, s, method, target, answers[p][0], parsed[p][0]) for i, s, p in rows
        ]

    item_records, control_records = records(items), records(controls)
    scored = [score(gold[r.example_id], r) for r in item_records]
    out: dict[str, Any] = {
        "items": to_json(summarize(scored, carried(target))),
        "consistency": None,
    }
    if control_records:
        parents = {s.gold.example_id: s for s in scored}
        checked = [score(gold[r.example_id], r) for r in control_records]
        out["consistency"] = to_json(paired_consistency(parents, checked))
    return out
