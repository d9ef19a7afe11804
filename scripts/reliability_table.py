"""Regenerate docs/reliability.md: every bad input and fault a user can cause, with the exact line
reasonbench answers (``tests/cli/test_reliability.py`` fails when the committed page differs).

Each case is run in-process through the ``reasonbench`` entry point, in a fresh temporary
directory (written ``<tmp>`` on the page), against a ``benchmark=small`` build (``<bench>``).

Usage: python scripts/reliability_table.py [--bench DIR] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reliability.md"


@dataclass(frozen=True)
class Case:
    group: str
    mistake: str
    argv: tuple[str, ...]  # <tmp> and <bench> are substituted
    setup: Callable[[Path, Path], None] = lambda tmp, bench: None


def _foreign_dir(tmp: Path, bench: Path) -> None:
    (tmp / "thesis").mkdir()
    (tmp / "thesis" / "chapter1.tex").write_text("years of work")


def _empty_metrics(tmp: Path) -> None:
    """A valid metrics.json without methods (what analyze writes before anything was run)."""
    import json

    from reasonbench.analysis.record import FORMAT, Inference, MetricsReport

    empty = MetricsReport(FORMAT, "x", None, {}, {}, Inference(0, 0, {}, {}, {}))
    (tmp / "metrics.json").write_text(json.dumps(empty.to_json()))


def _plugin_metrics(tmp: Path, bench: Path) -> None:
    """A metrics.json that analyze wrote with a plug-in this machine does not have."""
    import json

    from reasonbench.analysis.record import FORMAT, Inference, MetricsReport, Plugin

    plugins = [Plugin("my_pkg.metrics", "my-pkg", "1.2")]
    report = MetricsReport(FORMAT, "x", None, {}, {}, Inference(0, 0, {}, {}, {}), plugins=plugins)
    (tmp / "metrics.json").write_text(json.dumps(report.to_json()))


def _users_readme(tmp: Path, bench: Path) -> None:
    (tmp / "report").mkdir()
    (tmp / "report" / "README.md").write_text("my project")
    _empty_metrics(tmp)


def _edited_output(tmp: Path, bench: Path) -> None:
    from reasonbench.io import OutputDir

    with OutputDir(tmp / "report", "tables") as out:
        out.write_text("README.md", "# Results\n")
    (tmp / "report" / "README.md").write_text("# Results, with my notes\n")
    _empty_metrics(tmp)


def _predictions(tmp: Path, bench: Path, **change: object) -> None:
    """predictions/p.jsonl: one valid record for the first locked example, with ``change``."""
    import json

    from reasonbench.io import read_split

    first = read_split(bench, "test_locked", ["id"])[0]["id"]
    record = {
        "example_id": first, "method": "mine", "seed": 0, "split": "test_locked",
        "target": "direct_verdict", "raw_output": "verdict: deny", "parse_ok": True,
        "pred_old_verdict": None, "pred_new_verdict": "deny", "pred_receipt": None,
        "pred_cube": None, "confidence": None, "confidence_source": None,
        "verdict_source": "model", "schema_version": "2", **change,
    }  # fmt: skip
    (tmp / "preds").mkdir()
    (tmp / "preds" / "p.jsonl").write_text(json.dumps(record) + "\n")


def _empty_predictions(tmp: Path, bench: Path) -> None:
    (tmp / "preds").mkdir()


def _old_schema(tmp: Path, bench: Path) -> None:
    _predictions(tmp, bench, schema_version="1")


def _strange_verdict(tmp: Path, bench: Path) -> None:
    _predictions(tmp, bench, pred_new_verdict="maybe", raw_output="verdict: maybe")


def _parsed_but_empty(tmp: Path, bench: Path) -> None:
    _predictions(tmp, bench, pred_new_verdict=None)


def _a_file(tmp: Path, bench: Path) -> None:
    (tmp / "notes.txt").write_text("a file")


def _bad_cases(tmp: Path, bench: Path) -> None:
    (tmp / "cases.jsonl").write_text(
        '{"id": "c1", "sources": {"rubric": {"old": 1, "new": 2}}}\n'
        '{"id": "c2", "sources": {"rubric": {"old": 1}}}\n'
    )


def _good_cases(tmp: Path, bench: Path) -> None:
    (tmp / "cases.jsonl").write_text('{"id": "c1", "sources": {"rubric": {"old": 1, "new": 2}}}\n')


def _not_json(tmp: Path, bench: Path) -> None:
    (tmp / "cube.json").write_text("{'sources': ['G']}")


SERVED = ("evaluate", "judge=openai", "judge.args.base_url=http://127.0.0.1:8000/v1",
          "judge.args.model=m")  # fmt: skip


def _served(mistake: str, setting: str) -> Case:
    """A served judge (``judge=openai``) with one wrong argument."""
    return Case("served judges", mistake, (*SERVED, f"judge.args.{setting}"))


# a training run of the smallest model that checkpoints after every step
RESUMED = (
    "train", "model=tiny_1.7b", "model.cache_dir=<tmp>/tiny", "data_dir=<bench>",
    "optim.max_steps=2", "optim.batch_size=4", "save_every=1", "out_dir=<tmp>/run",
    "progress=false",
)  # fmt: skip


class _Payload:
    """Unpickled, this would create ``<tmp>/ran``: code hidden in a checkpoint."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[Path]]:
        return (Path.touch, (self.marker,))


def _planted_checkpoint(tmp: Path, bench: Path) -> None:
    """The run stopped after its first checkpoint; then a payload is planted in its state."""
    import torch

    from reasonbench.cli.main import main
    from reasonbench.train import checkpoint

    argv = [a.replace("<tmp>", str(tmp)).replace("<bench>", str(bench)) for a in RESUMED]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*argv, "stop_after_steps=1"]) == 0
    state = tmp / "run" / "checkpoints" / "step-00000001" / checkpoint.STATE_FILE
    torch.save({**checkpoint.read_state(state), "counters": _Payload(tmp / "ran")}, state)


# harness logs (import-lm-eval, import-inspect): logs as each harness writes them, of the
# direct_verdict task on split shift_depth, every answer right (docs/integrations.md)
STAMP = "2026-01-01T00-00-00.000000"
LM_EVAL = ("import-lm-eval", "log=<tmp>/lm_eval_out", "data_dir=<bench>",
           "predictions_dir=<tmp>/preds")  # fmt: skip
INSPECT = ("import-inspect", "log=<tmp>/logs", "data_dir=<bench>", "predictions_dir=<tmp>/preds")


def _task_rows(bench: Path, split: str = "shift_depth") -> list[dict[str, Any]]:
    from reasonbench.integrations.common import TaskSpec, task_rows

    return task_rows(TaskSpec(bench, split, "direct_verdict"))


def _ours(bench: Path, **change: object) -> dict[str, object]:
    """The ``reasonbench`` metadata of an exported task or of the inspect task."""
    from reasonbench.integrations.common import provenance

    return {**provenance(bench), "split": "shift_depth", "target": "direct_verdict",
            "trim": True, **change}  # fmt: skip


def _lm_eval_log(
    tmp: Path, bench: Path, limit: int | None = None, samples: bool = True, stamp: str = STAMP,
    rows_of: str = "shift_depth", reported: float = 1.0, **change: object,
) -> None:  # fmt: skip
    """What ``lm_eval ... --log_samples --output_path <tmp>/lm_eval_out`` writes."""
    import json

    out = tmp / "lm_eval_out" / "tiny"
    out.mkdir(parents=True, exist_ok=True)
    task = "reasonbench_direct_verdict"
    meta = {"version": 1, "reasonbench": _ours(bench, **change)}
    results = {
        "results": {task: {"alias": task, "revised_verdict_accuracy,none": reported}},
        "configs": {task: {"task": task, "metadata": meta}},
        "config": {"model": "hf", "model_args": {"pretrained": "tiny"}, "limit": limit},
        "model_name": "tiny",
        "lm_eval_version": "0.4.13",
    }
    (out / f"results_{stamp}.json").write_text(json.dumps(results))
    if samples:
        rows = _task_rows(bench, rows_of)[:limit]
        lines = [
            json.dumps({"doc": {"id": r["id"]}, "filtered_resps": [r["answer"]]}) for r in rows
        ]
        (out / f"samples_{task}_{stamp}.jsonl").write_text("\n".join(lines) + "\n")


def _lm_eval_twice(tmp: Path, bench: Path) -> None:
    _lm_eval_log(tmp, bench)
    _lm_eval_log(tmp, bench, stamp="2026-01-02T00-00-00.000000")  # run again, same output path


def _lm_eval_other_tasks(tmp: Path, bench: Path) -> None:
    import json

    (tmp / "lm_eval_out" / "gpt2").mkdir(parents=True)
    results = {"results": {"hellaswag": {"acc,none": 0.3}}, "configs": {"hellaswag": {}}}
    (tmp / "lm_eval_out" / "gpt2" / f"results_{STAMP}.json").write_text(json.dumps(results))


def _method_taken(tmp: Path, bench: Path) -> None:
    """The run, and a prediction file elsewhere already holding the method it would import as."""
    import json

    _lm_eval_log(tmp, bench)
    (tmp / "preds" / "evaluated").mkdir(parents=True)
    record = {"method": "tiny-direct_verdict"}  # a prediction file's first line names its method
    (tmp / "preds" / "evaluated" / "seed0.jsonl").write_text(json.dumps(record) + "\n")


def _eval_log(
    tmp: Path, bench: Path, task: str = "reasonbench", status: str = "success", **change: object
) -> None:
    """What ``inspect eval ... --log-dir <tmp>/logs`` writes: one .eval log."""
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalSample,
        EvalSpec,
        write_eval_log,
    )
    from inspect_ai.model import ModelOutput

    ours = {"reasonbench": _ours(bench, **change)} if task == "reasonbench" else {}
    spec = EvalSpec(created="2026-01-01T00:00:00+00:00", task=task, dataset=EvalDataset(),
                    model="openai-api/local/tiny", config=EvalConfig(), metadata=ours)  # fmt: skip
    samples = [
        EvalSample(
            id=r["id"],
            epoch=1,
            input=r["prompt"],
            target=r["answer"],
            output=ModelOutput.from_content("tiny", r["answer"]),
        )  # fmt: skip
        for r in _task_rows(bench)
    ]
    (tmp / "logs").mkdir()
    log = EvalLog(eval=spec, status=status, samples=samples)
    write_eval_log(log, str(tmp / "logs" / "run.eval"))


def _not_an_eval_log(tmp: Path, bench: Path) -> None:
    (tmp / "logs").mkdir()
    (tmp / "logs" / "run.eval").write_text("not a zip archive")


CASES: tuple[Case, ...] = (
    Case("configuration", "a typo in a key, with `+`", ("generate", "+out_dri=<tmp>/x")),
    Case("configuration", "a typo in a key", ("generate", "out_dri=<tmp>/x")),
    Case("configuration", "a value of the wrong type", ("generate", "workers=two")),
    Case("configuration", "a wrong value in a sweep", ("train", "-m", "seed=0,1,x")),
    Case("configuration", "a value outside its choices", ("train", "batching=fast")),
    Case("configuration", "an unknown config-group option", ("generate", "benchmark=smal")),
    Case("configuration", "a torch thread count below one", ("train", "threads=0")),
    Case("configuration", "an unknown CPU kernel setting", ("predict", "cpu_kernels=fast")),
    Case(
        "configuration",
        "a backbone source that is not registered",
        ("train", "model=tiny", "model.source=tiyn", "data_dir=<bench>", "out_dir=<tmp>/run"),
    ),
    Case("configuration", "adding a key that exists", ("generate", "+workers=3")),
    Case("configuration", "removing a key", ("generate", "~workers")),
    Case("configuration", "a required key left out", ("certify",)),
    Case(
        "configuration",
        "a required key another key's default names, left out",
        ("judge-card", "judge=custom", "judge.factory=tests.toys.judge:build", "data_dir=<bench>"),
    ),
    Case(
        "configuration",
        "a sweep whose output folder names the swept key",
        ("certify", "-m", "cases=<tmp>/a.jsonl,<tmp>/b.jsonl", "out_dir=<tmp>/out/${cases}"),
    ),
    Case(
        "configuration",
        "a plug-in module that is not importable",
        ("generate", "plugins=[my_pkg.nope]"),
    ),
    Case("configuration", "a plug-in list swept", ("analyze", "-m", "plugins=a,b")),
    Case("configuration", "a deprecated flag without its value", ("verify", "--data-dir")),
    Case(
        "configuration",
        "a judge factory that does not exist",
        (
            "judge-card",
            "judge=custom",
            "judge.factory=my_judges:nope",
            "judge.name=x",
            "data_dir=<bench>",
        ),
    ),  # fmt: skip
    Case(
        "configuration",
        "an argument the judge factory does not take",
        (
            "judge-card",
            "judge=custom",
            "judge.factory=tests.toys.judge:build",
            "judge.name=x",
            "judge.args.colour=red",
            "data_dir=<bench>",
            "out_dir=<tmp>/card",
        ),
    ),  # fmt: skip
    Case(
        "configuration",
        "a certify re-asking share outside 0..1",
        (
            "certify",
            "cases=<tmp>/cases.jsonl",
            "adjudicator=python:json:dumps",
            "labels=[a,b]",
            "execution=monotone",
            "verify_fraction=1.5",
            "out_dir=<tmp>/out",
        ),
    ),  # fmt: skip
    Case(
        "configuration",
        "a certify sweep over out_dir",
        (
            "certify",
            "-m",
            "cases=<tmp>/cases.jsonl",
            "adjudicator=python:json:dumps",
            "labels=[a,b]",
            "out_dir=<tmp>/a,<tmp>/b",
        ),
    ),  # fmt: skip
    Case(
        "configuration",
        "an unbalanced quote in a command adjudicator",
        (
            "certify",
            "cases=<tmp>/cases.jsonl",
            "labels=[a,b]",
            "out_dir=<tmp>/out",
            "adjudicator=command:sh -c 'tail",
        ),
        _good_cases,
    ),  # fmt: skip
    Case(
        "configuration",
        "a baseline run that is not configured",
        ("baselines", "data_dir=<bench>", "out_dir=<tmp>/p", "make=[tfidf2]"),
    ),
    Case(
        "configuration",
        "a baseline run of a training split the benchmark lacks",
        (
            "baselines",
            "data_dir=<bench>",
            "out_dir=<tmp>/p",
            "runs.tfidf.train_splits=[train,nope]",
        ),
    ),
    Case(
        "configuration",
        "a setting a baseline kind does not take",
        ("baselines", "data_dir=<bench>", "out_dir=<tmp>/p", "runs.tfidf.settings.alphaa=1"),
    ),
    Case(
        "configuration",
        "a consistency repair of an unknown control kind",
        (
            "analyze",
            "data_dir=<bench>",
            "predictions_dir=<tmp>/preds",
            "out=<tmp>/m.json",
            "repairs=[{name: r, after: a, before: b, kind: permutaton}]",
        ),
    ),  # fmt: skip
    Case(
        "configuration",
        "an unknown PIS Δflip rule",
        (
            "judge-card",
            "judge=majority",
            "data_dir=<bench>",
            "pis.delta_flip_rule=zero",
            "out_dir=<tmp>/card",
        ),
    ),  # fmt: skip
    Case(
        "served judges",
        "a served judge without its server's address",
        ("evaluate", "judge=openai", "judge.name=qwen3-8b", "judge.args.model=Qwen/Qwen3-8B"),
    ),
    _served("a concurrency that is not a number", "concurrency=abc"),
    _served("a fractional concurrency", "concurrency=1.5"),
    _served("no request in flight", "concurrency=0"),
    _served("a timeout that is not a number", "timeout_s=abc"),
    _served("no timeout", "timeout_s=null"),
    _served("a timeout that is not a number (NaN)", "timeout_s=nan"),
    _served("an infinite timeout", "timeout_s=inf"),
    _served("a zero timeout", "timeout_s=0"),
    _served("a negative timeout", "timeout_s=-5"),
    _served("a token budget that is not a number", "decoding.max_new_tokens=many"),
    Case(
        "outputs",
        "generate into a folder that is not a benchmark build",
        ("generate", "benchmark=small", "out_dir=<tmp>/thesis"),
        _foreign_dir,
    ),
    Case(
        "outputs",
        "write tables over a file reasonbench did not write",
        ("tables", "data_dir=<bench>", "metrics=<tmp>/metrics.json", "out_dir=<tmp>/report"),
        _users_readme,
    ),
    Case(
        "outputs",
        "write tables over an output edited since",
        ("tables", "data_dir=<bench>", "metrics=<tmp>/metrics.json", "out_dir=<tmp>/report"),
        _edited_output,
    ),
    Case(
        "outputs",
        "an output path through a file",
        ("generate", "benchmark=small", "out_dir=<tmp>/notes.txt/rb"),
        _a_file,
    ),
    Case("inputs", "no benchmark where data_dir points", ("audit", "data_dir=<tmp>/absent")),
    Case(
        "inputs",
        "a model export of a directory that is not a finished run",
        ("export-model", "run=<tmp>", "out_dir=<tmp>/exported"),
    ),
    Case(
        "inputs",
        "no benchmark for the baselines",
        ("baselines", "data_dir=<tmp>/absent", "out_dir=<tmp>/p"),
    ),
    Case(
        "inputs",
        "a split that does not exist",
        ("judge-card", "judge=majority", "data_dir=<bench>", "splits=[nope]", "out_dir=<tmp>/card"),
    ),  # fmt: skip
    Case(
        "inputs",
        "no prediction files",
        ("analyze", "data_dir=<bench>", "predictions_dir=<tmp>/preds", "out=<tmp>/m.json"),
        _empty_predictions,
    ),
    Case(
        "inputs",
        "prediction records of an older schema",
        ("analyze", "data_dir=<bench>", "predictions_dir=<tmp>/preds", "out=<tmp>/m.json"),
        _old_schema,
    ),
    Case(
        "inputs",
        "a predicted verdict outside the stratum's labels",
        ("analyze", "data_dir=<bench>", "predictions_dir=<tmp>/preds", "out=<tmp>/m.json"),
        _strange_verdict,
    ),
    Case(
        "inputs",
        "`parse_ok: true` with every prediction field null",
        ("analyze", "data_dir=<bench>", "predictions_dir=<tmp>/preds", "out=<tmp>/m.json"),
        _parsed_but_empty,
    ),
    Case(
        "inputs",
        "a metrics file written with a plug-in this machine cannot import",
        ("tables", "data_dir=<bench>", "metrics=<tmp>/metrics.json", "out_dir=<tmp>/report"),
        _plugin_metrics,
    ),
    Case(
        "inputs",
        "a cube file that is not JSON",
        ("receipt", "cube=<tmp>/cube.json"),
        _not_json,
    ),
    Case("inputs", "a cube file that is not there", ("receipt", "cube=<tmp>/none.json")),
    Case(
        "inputs",
        "resume from a checkpoint that holds code (a run folder from someone else)",
        RESUMED,
        _planted_checkpoint,
    ),
    Case(
        "inputs",
        "a case file with a source missing in one version",
        (
            "certify",
            "cases=<tmp>/cases.jsonl",
            "adjudicator=python:json:dumps",
            "labels=[a,b]",
            "out_dir=<tmp>/out",
        ),
        _bad_cases,
    ),  # fmt: skip
    Case(
        "inputs",
        "compare a path that does not exist",
        ("compare", "left=<tmp>/none", "right=<bench>"),
    ),
    Case(
        "inputs",
        "compare a results directory with a file",
        ("compare", "left=<bench>", "right=<bench>/MANIFEST.json"),
    ),
    Case("inputs", "a negative tolerance", ("compare", "left=<bench>", "right=<bench>", "rtol=-1")),
    Case("inputs", "compare with one side left out", ("compare", "right=<bench>")),
    Case("harness logs", "import-lm-eval without a log", ("import-lm-eval", "data_dir=<bench>")),
    Case("harness logs", "an lm_eval output path that is not there", LM_EVAL),
    Case(
        "harness logs",
        "an lm_eval output path without results",
        LM_EVAL,
        lambda tmp, bench: (tmp / "lm_eval_out").mkdir(),
    ),
    Case(
        "harness logs",
        "a per-sample log given instead of the results file",
        (
            "import-lm-eval",
            f"log=<tmp>/lm_eval_out/tiny/samples_reasonbench_direct_verdict_{STAMP}.jsonl",
            "data_dir=<bench>",
            "predictions_dir=<tmp>/preds",
        ),
        _lm_eval_log,
    ),  # fmt: skip
    Case("harness logs", "an lm_eval run of other tasks only", LM_EVAL, _lm_eval_other_tasks),
    Case(
        "harness logs",
        "an lm_eval run without --log_samples",
        LM_EVAL,
        lambda tmp, bench: _lm_eval_log(tmp, bench, samples=False),
    ),
    Case(
        "harness logs",
        "an lm_eval run with --limit 4",
        LM_EVAL,
        lambda tmp, bench: _lm_eval_log(tmp, bench, limit=4),
    ),
    Case("harness logs", "lm_eval run twice into one output path", LM_EVAL, _lm_eval_twice),
    Case(
        "harness logs",
        "logs of another build",
        LM_EVAL,
        lambda tmp, bench: _lm_eval_log(tmp, bench, manifest_sha256="0" * 64),
    ),
    Case(
        "harness logs",
        "per-sample logs of another split beside the results",
        LM_EVAL,
        lambda tmp, bench: _lm_eval_log(tmp, bench, rows_of="test_locked"),
    ),
    Case(
        "harness logs",
        "a log scored by another reasonbench version",
        LM_EVAL,
        lambda tmp, bench: _lm_eval_log(tmp, bench, reported=0.5),
    ),
    Case("harness logs", "a model name another prediction file holds", LM_EVAL, _method_taken),
    Case(
        "harness logs",
        "a name that cannot name a directory",
        (*LM_EVAL, "name=org/model"),
        _lm_eval_log,
    ),
    Case("harness logs", "an inspect log directory that is not there", INSPECT),
    Case("harness logs", "a file that is not an inspect log", INSPECT, _not_an_eval_log),
    Case(
        "harness logs",
        "an inspect log of another task",
        INSPECT,
        lambda tmp, bench: _eval_log(tmp, bench, task="theory_of_mind"),
    ),
    Case(
        "harness logs",
        "an inspect run that did not finish",
        INSPECT,
        lambda tmp, bench: _eval_log(tmp, bench, status="cancelled"),
    ),
    Case(
        "harness logs",
        "inspect logs of a split the build does not have",
        INSPECT,
        lambda tmp, bench: _eval_log(tmp, bench, split="test_v2"),
    ),
    Case(
        "harness logs",
        "inspect logs of another build",
        INSPECT,
        lambda tmp, bench: _eval_log(tmp, bench, manifest_sha256="f" * 64),
    ),
)


def run_case(case: Case, bench: Path) -> tuple[int, str]:
    from reasonbench.cli.main import main

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        case.setup(tmp, bench)
        argv = [a.replace("<tmp>", str(tmp)).replace("<bench>", str(bench)) for a in case.argv]
        err = io.StringIO()
        cwd = os.getcwd()
        os.chdir(tmp)  # a typo must not write anything anywhere, not even in the cwd
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(argv)
        finally:
            os.chdir(cwd)
        lines = [line for line in err.getvalue().splitlines() if line.startswith("reasonbench ")]
        text = (
            (lines[-1] if lines else "").replace(str(tmp), "<tmp>").replace(str(bench), "<bench>")
        )
        return code, text


def outcomes(bench: Path) -> list[tuple[Case, int, str]]:
    """Every case run once: (case, exit status, the line reasonbench answered)."""
    return [(case, *run_case(case, bench)) for case in CASES]


def page(bench: Path, results: list[tuple[Case, int, str]] | None = None) -> str:
    out = [
        "# Reliability: what every mistake gets",
        "",
        "Every error a user can cause ends in **one line** on stderr —",
        "`reasonbench <command>: error: <what>, <where>` — and a non-zero exit status (2 for bad",
        "input or configuration, 1 for a failed run, 130 for Ctrl-C), never a traceback, and",
        "nothing half-written: outputs are written to a temporary name and renamed into place, a",
        "refused or failed command leaves every existing file as it was, and a command replaces only",
        "files reasonbench wrote (a ledger, `.reasonbench-outputs.json`, in each output directory;",
        "a benchmark build is recognised by its `MANIFEST.json`; a training run by its",
        "`fingerprint.json`). `overwrite=true` is the explicit way to replace anything else.",
        "",
        "This page is generated: `python scripts/reliability_table.py` runs every case below in a",
        "fresh temporary directory (`<tmp>`), against a `benchmark=small` build (`<bench>`), and",
        "`tests/cli/test_reliability.py` fails when the page and the real messages differ.",
        "",
    ]
    group = None
    results = results if results is not None else outcomes(bench)
    for i, (case, code, text) in enumerate(results):
        if case.group != group:
            group = case.group
            out += [f"## {group.capitalize()}", "", "| mistake | command | exit | what you see |"]
            out.append("|---|---|---|---|")
        command = "reasonbench " + " ".join(case.argv)
        shown = text.replace("|", "\\|")  # a pipe would end the Markdown cell
        out.append(f"| {case.mistake} | `{command}` | {code} | `{shown}` |")
        if i + 1 == len(results) or results[i + 1][0].group != group:
            out.append("")
    return "\n".join(out) + "\n" + FAULTS


FAULTS = """## Faults of the machine

Checked by `tests/cli/test_faults.py` (the paths differ per machine, so they are not shown
verbatim here):

| fault | what you see |
|---|---|
| the disk is full, or a file-size limit (`ulimit -f`) is hit | `reasonbench generate: error: file too large (a file-size limit such as ulimit -f), at <path>` (or `no space left on device, at <path>`); the staging directory is removed, the previous build stays |
| permission denied, a read-only location | `reasonbench generate: error: cannot create directory <path>: Permission denied` (or `Operation not permitted`) |
| the process is killed (SIGKILL) mid-run | its worker processes exit with it (no orphans); the next run removes the dead run's staging directory; `train`, `predict`, `evaluate` and `certify` resume from what they kept |
| Ctrl-C (SIGINT to the process or its whole group), at any moment from the first import on | `reasonbench <command>: interrupted; nothing half-written was kept (rerun to resume)`, exit 130, within about 1 s of the signal however busy the command is (a watchdog ends it after 1 s, removing the temporary files being written); workers end with it; checked at three delays for `analyze`, `generate`, `predict` and `certify` by `tests/cli/test_ctrl_c.py`. Only the interpreter's own start-up (about 70 ms, before any reasonbench code runs) keeps Python's default handling |
| a bug in reasonbench | `reasonbench <command>: error: internal error <type>: <message> (a bug in reasonbench; REASONBENCH_DEBUG=1 shows the traceback)`, exit 1 |
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, help="a benchmark=small build (default: build one)")
    parser.add_argument("--check", action="store_true", help="compare with the committed page")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # tests.toys.judge is one of the cases' factories
    with tempfile.TemporaryDirectory() as name:
        bench = args.bench
        if bench is None:
            from reasonbench.cli.main import main as reasonbench

            bench = Path(name) / "rb"
            reasonbench(["generate", "benchmark=small", f"out_dir={bench}", "progress=false"])
        text = page(bench.resolve())
    if args.check:
        same = PAGE.read_text(encoding="utf-8") == text
        print("docs/reliability.md is up to date" if same else "docs/reliability.md differs")
        return 0 if same else 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
