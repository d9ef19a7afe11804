"""``reasonbench evaluate``: any registered judge on any benchmark splits -> prediction records.

Every distinct prompt of the splits (controls included) is asked ``runs`` times through the one
answering path (:func:`reasonbench.judges.answering.ask_judge`, also behind the Judge Card), run
``r`` with seed ``seed + r``, so the answers are cached and an interrupted run resumes. Each
answer becomes a prediction record (docs/predictions.md) of method ``judge.name`` and seed
``seed + r``: ``raw_output`` is the judge's whole output, the frozen strict parser reads the
answer (reasoning removed, cut to the target's lines) and decides ``parse_ok``; a lenient reading
is counted beside it in ``evaluate.json``. A served judge's token usage and cost go to
``usage.json``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from reasonbench.evaluate.lenient import lenient_parse
from reasonbench.evaluate.outputs import (
    MARK,
    check_ownership,
    read_rows,
    write_json,
    write_records,
)
from reasonbench.evaluate.progress import Progress
from reasonbench.judges.answering import Answer, ask_judge
from reasonbench.judges.base import Judge
from reasonbench.predictions.fields import predicted_fields
from reasonbench.predictions.record import PredictionRecord
from reasonbench.serve import Usage, write_usage
from reasonbench.targets import Parsed, parse_target

__all__ = ["EvaluateSettings", "evaluate"]


@runtime_checkable
class Metered(Protocol):
    """A judge that counts tokens and cost (the served judge)."""

    @property
    def usage(self) -> Usage: ...


@dataclass(frozen=True)
class EvaluateSettings:
    data_dir: Path
    splits: tuple[str, ...]
    out_dir: Path
    predictions_dir: Path
    runs: int = 1
    seed: int = 0
    cache_dir: Path | None = None  # local judges' answer cache (a served judge keeps its own)
    lenient: bool = True
    progress: bool = True


def _labels(rows: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    from reasonbench.strata.registry import load_stratum

    return {s: load_stratum(s).labels for s in sorted({r["stratum"] for r in rows})}


def _record(
    row: Mapping[str, Any], judge: Judge, seed: int, answer: Answer, labels: frozenset[str]
) -> PredictionRecord:
    parsed = parse_target(judge.target, answer.text, labels)
    return PredictionRecord(
        example_id=row["id"],
        method=judge.name,
        seed=seed,
        split=row["split"],
        raw_output=answer.raw,
        parse_ok=isinstance(parsed, Parsed),
        confidence=None,
        confidence_source=None,
        **predicted_fields(parsed),
    )


def _manifest(data_dir: Path) -> dict[str, Any]:
    import json

    from reasonbench.assembly.write import manifest_hash

    manifest = json.loads((data_dir / "MANIFEST.json").read_text())
    return {
        "data_dir": str(data_dir),
        "manifest_sha256": manifest_hash(manifest),
        "benchmark": manifest.get("config", {}).get("name"),
    }


def evaluate(
    judge: Judge, settings: EvaluateSettings, info: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Answer, write the records and ``evaluate.json``; returns that record of the run."""
    rows, skipped = read_rows(settings.data_dir, settings.splits)
    check_ownership(settings.out_dir, settings.predictions_dir, judge.name)
    labels = _labels(rows)
    prompts = list(dict.fromkeys(r["prompt"] for r in rows))
    bar = Progress(
        len(prompts) * settings.runs, f"evaluate {judge.name}", enabled=settings.progress
    )
    try:
        answers = ask_judge(
            judge, prompts, settings.runs, settings.seed, settings.cache_dir, bar.update
        )
    finally:
        bar.close()
    settings.out_dir.mkdir(parents=True, exist_ok=True)
    files, parse_ok, lenient_ok = [], Counter[str](), Counter[str]()
    for run in range(settings.runs):
        seed = settings.seed + run
        records = []
        for row in rows:
            answer = answers[row["prompt"]][run]
            record = _record(row, judge, seed, answer, labels[row["stratum"]])
            parse_ok[row["split"]] += record.parse_ok
            if settings.lenient:
                lenient = lenient_parse(judge.target, answer.text, labels[row["stratum"]])
                lenient_ok[row["split"]] += isinstance(lenient, Parsed)
            records.append(record)
        path = settings.out_dir / f"seed{seed}.jsonl"
        write_records(path, records)
        files.append(str(path))
    per_split = Counter(r["split"] for r in rows)
    if isinstance(judge, Metered):  # this invocation's accounting (a rerun from cache costs 0)
        write_usage(settings.out_dir / "usage.json", judge.usage, {"method": judge.name})
    summary: dict[str, Any] = {
        "command": "evaluate",
        "method": judge.name,
        "target": judge.target,
        "sampling": judge.sampling,
        "judge": dict(info or {}),
        "data": _manifest(settings.data_dir),
        "splits": list(dict.fromkeys(r["split"] for r in rows)),
        "skipped_splits": skipped,
        "runs": settings.runs,
        "seeds": [settings.seed + r for r in range(settings.runs)],
        "files": files,
        "records_per_run": dict(sorted(per_split.items())),
        "distinct_prompts": len(prompts),
        "parse_ok": {s: parse_ok[s] for s in sorted(per_split)},  # over all runs
        "lenient_parse_ok": {s: lenient_ok[s] for s in sorted(per_split)}
        if settings.lenient
        else None,
    }
    describe = getattr(judge, "describe", None)
    if callable(describe):
        summary["judge_description"] = describe()
    write_json(settings.out_dir / MARK, summary)
    return summary
