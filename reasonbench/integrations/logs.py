"""A harness's logs as prediction records: ``reasonbench import-lm-eval`` and ``import-inspect``.

Each harness has a reader (registered in :data:`READERS`) that turns its log into
:class:`TaskLog` values: one per reasonbench task it ran, with the outputs per example id, the
task's target, split and reading, the build it read (its manifest hash) and the metrics the
harness reported. :func:`import_logs` then checks every log against the local build before it
writes anything — the same build, every example of the split exactly once, and the harness's
metrics equal to what ``analyze``'s scoring gives on the same outputs — and writes one
prediction file per task and split (``<predictions_dir>/<method>/<split>-seed<seed>.jsonl``,
schema 2, ``raw_output`` kept, ``parse_ok`` from the frozen parser) beside its
``<split>-seed<seed>.import.json``.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.integrations.common import (
    Observation,
    TaskSpec,
    harness_record,
    metric_names,
    observations,
    ratio,
    task_rows,
)
from reasonbench.io import DataIdentity, OutputDir, data_identity, read_manifest, split_names
from reasonbench.predictions import JsonlWriter
from reasonbench.predictions.record import PredictionRecord
from reasonbench.registry import Registry
from reasonbench.targets import get_target

__all__ = [
    "READERS",
    "LogsRead",
    "record_file",
    "summary_file",
    "ImportSettings",
    "LogError",
    "TaskLog",
    "import_logs",
    "read_inspect",
    "read_lm_eval",
]

SHOW = 5
TOLERANCE = 1e-9  # the harness's aggregate against the records': the same sums, maybe reordered
_METHOD = re.compile(r"[A-Za-z0-9._+-]+")


class LogError(ValueError):
    """A log that cannot become prediction records; the message names the log."""


@dataclass(frozen=True)
class TaskLog:
    """One reasonbench task as a harness logged it."""

    harness: str  # "lm-eval" or "inspect"
    harness_version: str | None
    source: Path  # the log file
    task: str  # the harness's task name
    model: str  # the model as the harness names it
    target: str
    split: str
    trim: bool
    manifest_sha256: str | None  # the build the task read
    outputs: tuple[tuple[str, str], ...]  # (example id, output), in log order
    metrics: dict[str, float | None]  # what the harness reported (None: 0/0)
    settings: dict[str, Any] = field(default_factory=dict)  # what else the log says of the run


@dataclass(frozen=True)
class LogsRead:
    """What a reader found: the reasonbench tasks' logs, and what it skipped as another task's
    (a log directory is often shared: inspect's ``./logs``, an lm_eval run of several tasks)."""

    logs: list[TaskLog]
    skipped: list[str] = field(default_factory=list)  # "<file> (task '<name>')"

    @classmethod
    def of(cls, read: LogsRead | list[TaskLog]) -> LogsRead:
        """A reader's result (a plain list, from a reader that skips nothing)."""
        return read if isinstance(read, LogsRead) else cls(list(read))

    def skipped_line(self) -> str | None:
        """The one line that lists what was skipped, or ``None``."""
        if not self.skipped:
            return None
        return f"skipped {len(self.skipped)} log(s) of other tasks: {_examples(self.skipped)}"


Reader = Callable[[Path], "LogsRead | list[TaskLog]"]
READERS: Registry[Reader] = Registry("harness log reader")


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, str):
        return None  # lm-eval writes "N/A" where it has no number
    number = float(value)
    return None if math.isnan(number) else number


def _files(path: Path, pattern: str, what: str) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise LogError(f"{path} not found (give {what})")
    found = sorted(path.rglob(pattern))
    if not found:
        raise LogError(f"no {pattern} under {path} (give {what})")
    return found


def _results(path: Path, what: str) -> dict[str, Any]:
    """An lm-eval results file, or a LogError that says what to give instead."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("configs"), dict):
        raise LogError(f"{path}: not an lm-eval results file (give {what})")
    return data


@dataclass(frozen=True)
class _Task:
    """What a task's log says of the reasonbench task it ran (the export's or the task's
    metadata ``reasonbench``)."""

    target: str
    split: str
    trim: bool
    manifest_sha256: str | None

    @classmethod
    def of(cls, meta: Any, where: str) -> _Task:
        try:
            target, split, trim = meta["target"], meta["split"], meta["trim"]
            manifest = meta.get("manifest_sha256")
        except (KeyError, TypeError, AttributeError):
            raise LogError(
                f"{where}: its reasonbench metadata lacks target, split or trim"
            ) from None
        get_target(str(target))  # a target this reasonbench does not know names the known ones
        return cls(str(target), str(split), bool(trim), None if manifest is None else str(manifest))


def _lm_eval_samples(results: Path, task: str) -> Path:
    stamp = results.stem.removeprefix("results_")
    path = results.parent / f"samples_{task}_{stamp}.jsonl"
    if not path.is_file():
        raise LogError(
            f"{results}: no per-sample log of {task} beside it ({path.name}); run lm_eval with "
            "--log_samples"
        )
    return path


def _lm_eval_outputs(path: Path) -> Iterator[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            sample = json.loads(line)
        except json.JSONDecodeError as exc:
            # the last line of a file that does not end its line was cut while it was written
            cut = number == len(lines) and not text.endswith("\n")
            why = "the line is cut short (the file was truncated)" if cut else "not JSON"
            raise LogError(f"{path}:{number}: {why}: {exc.msg} at column {exc.colno}") from None
        try:
            example_id, output = sample["doc"]["id"], sample["filtered_resps"][0]
        except (KeyError, IndexError, TypeError):
            raise LogError(
                f"{path}:{number}: not an lm-eval sample of a reasonbench task (no doc.id or "
                "filtered_resps)"
            ) from None
        if not isinstance(output, str):
            raise LogError(f"{path}:{number}: the response is {type(output).__name__}, not text")
        yield str(example_id), output


@READERS.register("lm-eval")
def read_lm_eval(path: Path) -> LogsRead:
    """lm_eval's ``--output_path`` (every ``results_*.json`` under it) or one results file, with
    its ``samples_<task>_<time>.jsonl`` beside it (``--log_samples``); the other tasks of a run
    are skipped."""
    what = "lm_eval's --output_path or a results_*.json in it"
    logs = []
    skipped: list[str] = []
    for results in _files(path, "results_*.json", what):
        data = _results(results, what)
        config = data.get("config") or {}
        model_args = config.get("model_args")
        model = data.get("model_name") or (
            model_args.get("pretrained") if isinstance(model_args, dict) else None
        )
        for task, task_config in sorted(data["configs"].items()):
            meta = task_config.get("metadata") if isinstance(task_config, dict) else None
            ours = meta.get("reasonbench") if isinstance(meta, dict) else None
            if ours is None:
                skipped.append(f"{results} (task {task!r})")  # another task of the same run
                continue
            task_meta = _Task.of(ours, f"{results} ({task})")
            target = task_meta.target
            reported = data.get("results", {}).get(task, {})
            metrics = {
                m: _number(reported[f"{m},none"])
                for m in metric_names(target)
                if f"{m},none" in reported
            }
            settings = {
                "n_shot": data.get("n-shot", {}).get(task),
                "instruction": bool(task_config.get("description")),
                "chat_template": data.get("chat_template_sha"),
                "system_instruction": data.get("system_instruction"),
                "limit": config.get("limit"),
                "model_args": model_args,
                "gen_kwargs": config.get("gen_kwargs"),
            }
            logs.append(
                TaskLog(
                    "lm-eval",
                    data.get("lm_eval_version"),
                    results,
                    task,
                    str(model or config.get("model") or "model"),
                    target,
                    task_meta.split,
                    task_meta.trim,
                    task_meta.manifest_sha256,
                    tuple(_lm_eval_outputs(_lm_eval_samples(results, task))),
                    metrics,
                    settings,
                )
            )
    return LogsRead(logs, skipped)  # none at all: the command's one line says what it skipped


@READERS.register("inspect")
def read_inspect(path: Path) -> LogsRead:
    """inspect's log directory (every ``*.eval`` under it; the logs of other tasks skipped) or
    one ``.eval``/``.json`` log (which must be the reasonbench task's)."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise LogError(
            "reading an inspect log needs inspect_ai: pip install -c constraints.txt -e '.[inspect]'"
        ) from None
    logs = []
    skipped: list[str] = []
    what = "an inspect log directory or a .eval file"
    for file in _files(path, "*.eval", what):
        try:
            log = read_eval_log(str(file))
        except Exception as exc:  # inspect raises many kinds for a file it cannot read
            cause = " ".join(str(exc).split())[:200] or "no message"  # one line, the cause
            raise LogError(
                f"{file}: not a readable inspect log ({type(exc).__name__}: {cause}); give {what}"
            ) from None
        ours = (log.eval.metadata or {}).get("reasonbench")
        if ours is None and path.is_dir():  # inspect's ./logs holds every task's logs
            skipped.append(f"{file} (task {log.eval.task!r})")
            continue
        if ours is None:
            raise LogError(f"{file}: not a log of the reasonbench task (task {log.eval.task!r})")
        task_meta = _Task.of(ours, str(file))
        if log.status != "success":
            raise LogError(f"{file}: the run did not finish (status {log.status}); rerun it")
        metrics: dict[str, float | None] = {}
        for score in log.results.scores if log.results else []:
            metrics.update({n: _number(m.value) for n, m in score.metrics.items()})
        outputs = tuple((str(s.id), s.output.completion) for s in log.samples or [])
        settings = {
            "instruction": bool(ours.get("instruction")),
            "epochs": log.eval.config.epochs,
            "limit": log.eval.config.limit,
            "model_base_url": log.eval.model_base_url,
            "generate_config": log.eval.model_generate_config.model_dump(exclude_none=True),
        }
        logs.append(
            TaskLog(
                "inspect",
                log.eval.packages.get("inspect_ai"),
                file,
                log.eval.task,
                log.eval.model,
                task_meta.target,
                task_meta.split,
                task_meta.trim,
                task_meta.manifest_sha256,
                outputs,
                metrics,
                settings,
            )
        )
    return LogsRead(logs, skipped)


@dataclass(frozen=True)
class ImportSettings:
    data_dir: Path
    predictions_dir: Path
    name: str | None = None  # records' method: <name>-<target> (None: the model's last part)
    seed: int = 0
    overwrite: bool = False


def record_file(split: str, seed: int) -> str:
    """One file per split and seed in a method's directory: a model evaluated on several splits
    (the locked test and its controls, for paired consistency) is one method."""
    return f"{split}-seed{seed}.jsonl"


def summary_file(split: str, seed: int) -> str:
    return f"{split}-seed{seed}.import.json"


def _examples(ids: Sequence[str]) -> str:
    return ", ".join(ids[:SHOW]) + (f" and {len(ids) - SHOW} more" if len(ids) > SHOW else "")


def method_name(name: str | None, log: TaskLog) -> str:
    """``<name>-<target>``; ``name`` defaults to the last part of the harness's model name."""
    if name is None:
        name = re.sub(r"[^A-Za-z0-9._+-]+", "-", log.model.rstrip("/").rsplit("/", 1)[-1])
        name = name.strip("-") or "model"
    method = f"{name}-{log.target}"
    if not _METHOD.fullmatch(method):
        raise LogError(
            f"name {name!r}: use letters, digits and . _ + - only (the method {method!r} names "
            "a directory)"
        )
    return method


@dataclass(frozen=True)
class Imported:
    log: TaskLog
    method: str
    records: list[PredictionRecord]
    ours: dict[str, float | None]  # the records' metrics, as analyze computes them

    @property
    def parse_ok(self) -> int:
        return sum(r.parse_ok for r in self.records)


def _agree(theirs: float | None, ours: float | None) -> bool:
    if theirs is None or ours is None:
        return theirs is ours
    return abs(theirs - ours) <= TOLERANCE * max(1.0, abs(ours))


def convert(log: TaskLog, settings: ImportSettings, build_sha: str, method: str) -> Imported:
    """The log's records in split order, after every check."""
    where = f"{log.source} ({log.task})"
    if log.manifest_sha256 is not None and log.manifest_sha256 != build_sha:
        raise LogError(
            f"{where} was made on another build (manifest {log.manifest_sha256[:12]}) than "
            f"{settings.data_dir} (manifest {build_sha[:12]}); set data_dir to the build it read"
        )
    if log.split not in split_names(settings.data_dir):
        raise LogError(
            f"{where} answers split {log.split}, which {settings.data_dir} does not have "
            f"(splits: {', '.join(split_names(settings.data_dir))}); set data_dir to the build "
            "it read"
        )
    rows = task_rows(TaskSpec(settings.data_dir, log.split, log.target, log.trim))
    outputs = dict(log.outputs)
    ids = [example_id for example_id, _ in log.outputs]
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dupes:
        raise LogError(
            f"{where}: example(s) {_examples(dupes)} answered more than once (epochs or repeats "
            "> 1?); import one answer per example"
        )
    known = {row["id"] for row in rows}
    unknown = sorted(set(ids) - known)
    if unknown:
        raise LogError(f"{where}: example id(s) {_examples(unknown)} are not in split {log.split}")
    missing = [row["id"] for row in rows if row["id"] not in outputs]
    if missing:
        limit = log.settings.get("limit")
        head = (
            f"{where} answers {len(ids)} of the {len(rows)} examples of split {log.split} "
            f"(missing e.g. {_examples(missing)})"
        )
        if limit is None:  # the run asked for every example: its log lost some
            raise LogError(
                f"{head}: {len(missing)} sample(s) missing from a run without a limit; the log "
                "is incomplete (a sample log cut short, or lines lost): rerun the harness"
            )
        raise LogError(
            f"{head}: the run had limit={limit}; analyze scores whole splits, so run the "
            "harness without a limit"
        )
    records: list[PredictionRecord] = []
    observed: dict[str, list[Observation]] = {name: [] for name in metric_names(log.target)}
    for row in rows:
        record = harness_record(
            row, outputs[row["id"]], log.target, log.trim, method, settings.seed
        )
        for name, value in observations(row, record).items():
            observed[name].append(value)
        records.append(record)
    ours = {name: _number(ratio(values)) for name, values in observed.items()}
    for name, theirs in sorted(log.metrics.items()):
        if name in ours and not _agree(theirs, ours[name]):
            raise LogError(
                f"{where}: the harness reported {name} = {theirs}, but reasonbench's frozen "
                f"parser gives {ours[name]} on the same outputs (a log scored by another "
                "reasonbench version?)"
            )
    return Imported(log, method, records, ours)


def import_logs(logs: Sequence[TaskLog], settings: ImportSettings, command: str) -> list[Imported]:
    """Check every log, then write each as ``<predictions_dir>/<method>/<split>-seed<seed>.jsonl``."""
    from reasonbench.evaluate.outputs import check_method_unique

    identity = data_identity(read_manifest(settings.data_dir, required=True))
    methods = [method_name(settings.name, log) for log in logs]
    keys = [(m, log.split) for m, log in zip(methods, logs, strict=True)]
    twice = sorted(k for k, n in Counter(keys).items() if n > 1)
    if twice:
        files = sorted(
            {str(log.source) for log, k in zip(logs, keys, strict=True) if k == twice[0]}
        )
        raise LogError(
            f"{len(files)} logs hold the same model, target and split (method {twice[0][0]!r}, "
            f"split {twice[0][1]}): {_examples(files)}; give one of them as log=<file>"
        )
    build_sha = identity.manifest_sha256
    done = [convert(log, settings, build_sha, m) for log, m in zip(logs, methods, strict=True)]
    # one OutputDir per method directory: its ledger is read once and written once, so the
    # splits of one model imported together are all recorded as reasonbench's files
    outs: dict[str, OutputDir] = {}
    for item in done:  # every refusal before the first file is written
        if item.method not in outs:
            root = settings.predictions_dir / item.method
            outs[item.method] = OutputDir(root, command, settings.overwrite)
            check_method_unique(
                root, settings.predictions_dir, item.method, "set name= to another name"
            )
        for name in (record_file(item.log.split, settings.seed),
                     summary_file(item.log.split, settings.seed)):  # fmt: skip
            outs[item.method].check(name)
    for method, out in outs.items():
        with out:
            for item in done:
                if item.method != method:
                    continue
                data_file = record_file(item.log.split, settings.seed)
                with out.writing(data_file) as tmp, JsonlWriter(tmp) as writer:
                    for record in item.records:
                        writer.write(record)
                summary = _summary(item, settings, identity, data_file)
                out.write_json(summary_file(item.log.split, settings.seed), summary)
    return done


def _summary(
    item: Imported, settings: ImportSettings, identity: DataIdentity, data_file: str
) -> dict[str, Any]:
    log = item.log
    return {
        "command": f"import-{log.harness}",
        "harness": log.harness,
        "harness_version": log.harness_version,
        "log": str(log.source),
        "task": log.task,
        "model": log.model,
        "method": item.method,
        "target": log.target,
        "split": log.split,
        "seed": settings.seed,
        "trim": log.trim,
        "data": {
            "data_dir": str(settings.data_dir),
            "manifest_sha256": identity.manifest_sha256,
            "benchmark": identity.benchmark,
        },
        "files": [data_file],
        "records": len(item.records),
        "parse_ok": item.parse_ok,
        "metrics": item.ours,  # equal to the harness's (checked), as analyze computes them
        "harness_metrics": log.metrics,
        "settings": log.settings,
    }
