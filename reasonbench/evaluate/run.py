"""``reasonbench evaluate``: any registered judge on any benchmark splits -> prediction records.

Every distinct prompt of the splits (controls included) is asked ``runs`` times through the one
answering path (:func:`reasonbench.judges.answering.ask_judge`, also behind the Judge Card), run
``r`` with seed ``seed + r``, so the answers are cached and an interrupted run resumes. Each
answer becomes a prediction record (docs/predictions.md) of method ``judge.name``, seed
``seed + r`` and the judge's target: ``raw_output`` is the judge's whole output; the frozen strict
parser reads the answer (reasoning removed, cut to the target's lines) and decides ``parse_ok``;
a lenient reading of the whole answer (reasoning removed, not cut) is counted beside it in
``evaluate.json``: an answer counts there when either reading accepts it, so the lenient count is
never below the strict one. A served judge's token usage and
cost go to ``usage.json``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from reasonbench.evaluate.lenient import lenient_parse, whole_answer
from reasonbench.evaluate.outputs import check_method_unique, read_rows
from reasonbench.io import OutputDir, data_identity, read_manifest
from reasonbench.judges.answering import Output, ask_judge
from reasonbench.judges.base import Judge
from reasonbench.plugins import loaded_plugins
from reasonbench.predictions import JsonlWriter
from reasonbench.predictions.answers import row_record
from reasonbench.predictions.record import PredictionRecord
from reasonbench.progress import Progress
from reasonbench.serve import Usage
from reasonbench.targets import ParseFailure, parse_target

__all__ = ["EvaluateSettings", "Metered", "evaluate"]

COMMAND = "evaluate"
SUMMARY, USAGE = "evaluate.json", "usage.json"


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
    overwrite: bool = False


def _labels(rows: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    from reasonbench.strata.registry import load_stratum

    return {s: load_stratum(s).labels for s in sorted({r["stratum"] for r in rows})}


def _record(
    row: Mapping[str, Any], judge: Judge, seed: int, said: Output, labels: frozenset[str]
) -> PredictionRecord:
    answer = parse_target(judge.target, said.text, labels)
    return row_record(row, judge.name, seed, judge.target, said.raw, answer)


def evaluate(
    judge: Judge, settings: EvaluateSettings, info: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Ask, then write the records, ``evaluate.json`` (returned) and ``usage.json``."""
    rows, skipped = read_rows(settings.data_dir, settings.splits)
    identity = data_identity(read_manifest(settings.data_dir, required=True))
    seeds = [settings.seed + r for r in range(settings.runs)]
    names = [f"seed{s}.jsonl" for s in seeds] + [SUMMARY, USAGE]
    with OutputDir(settings.out_dir, COMMAND, settings.overwrite) as out:
        for name in names:  # refuse before the first (possibly paid) request, not after
            out.check(name)
        check_method_unique(settings.out_dir, settings.predictions_dir, judge.name)
        labels = _labels(rows)
        prompts = list(dict.fromkeys(r["prompt"] for r in rows))
        total = len(prompts) * settings.runs
        with Progress(total, f"evaluate {judge.name}", "answers", settings.progress) as bar:
            answers = ask_judge(
                judge, prompts, settings.runs, settings.seed, settings.cache_dir, bar.update
            )
        parse_ok, lenient_ok = Counter[str](), Counter[str]()
        for run, seed in enumerate(seeds):
            with out.writing(f"seed{seed}.jsonl") as tmp, JsonlWriter(tmp) as writer:
                for row in rows:
                    said, allowed = answers[row["prompt"]][run], labels[row["stratum"]]
                    record = _record(row, judge, seed, said, allowed)
                    parse_ok[row["split"]] += record.parse_ok
                    if settings.lenient:
                        lenient = lenient_parse(judge.target, whole_answer(said.raw), allowed)
                        lenient_ok[row["split"]] += record.parse_ok or not isinstance(
                            lenient, ParseFailure
                        )
                    writer.write(record)
        per_split = Counter(r["split"] for r in rows)
        summary: dict[str, Any] = {
            "command": COMMAND,
            "method": judge.name,
            "target": judge.target,
            "sampling": judge.sampling,
            "judge": dict(info or {}),
            "data": {
                "data_dir": str(settings.data_dir),
                "manifest_sha256": identity.manifest_sha256,
                "benchmark": identity.benchmark,
            },
            "splits": list(dict.fromkeys(r["split"] for r in rows)),
            "skipped_splits": skipped,
            "runs": settings.runs,
            "seeds": seeds,
            "out_dir": str(settings.out_dir),
            "files": [f"seed{s}.jsonl" for s in seeds],
            "records_per_run": dict(sorted(per_split.items())),
            "distinct_prompts": len(prompts),
            "parse_ok": {s: parse_ok[s] for s in sorted(per_split)},  # over all runs
            "lenient_parse_ok": {s: lenient_ok[s] for s in sorted(per_split)}
            if settings.lenient
            else None,
        }
        plugins = loaded_plugins()  # recorded only when there are any (analyze loads them too)
        if plugins:
            summary["plugins"] = plugins
        describe = getattr(judge, "describe", None)
        if callable(describe):
            summary["judge_description"] = describe()
        out.write_json(SUMMARY, summary)
        if isinstance(judge, Metered):  # this invocation's accounting (a rerun from cache costs 0)
            out.write_json(USAGE, {**judge.usage.to_json(), "method": judge.name})
    return summary
