"""ReasonBench in lm-evaluation-harness, end to end and offline: ``export-lm-eval`` writes the
tasks, lm-eval runs them (the tiny model through its ``hf`` backend; a scripted model through its
own LM interface), ``import-lm-eval`` turns the logs into prediction records, and ``analyze``
gives exactly the harness's numbers on the same outputs. The tiny model's run is the worked
example of docs/integrations.md: every output it shows as checked is what this run prints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from reasonbench.cli.main import main
from reasonbench.integrations.common import prompt_of
from reasonbench.io import read_manifest
from reasonbench.judges.instructions import instruction
from reasonbench.models.tiny import build_tiny
from reasonbench.predictions import read_predictions
from tests.integrations.conftest import (
    DOC,
    SPLIT,
    TARGETS_ALL,
    Script,
    analyzed,
    as_in_docs,
    assert_same,
    not_in_docs,
    table_rows,
)

SHOWN = ("reasonbench_direct_verdict", "reasonbench_direct_receipt")  # the docs' lm-eval table

lm_eval = pytest.importorskip(
    "lm_eval", reason="the lm-eval extra (scripts/setup_env.sh installs it)"
)

from lm_eval import simple_evaluate  # noqa: E402
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.loggers import EvaluationTracker  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402
from lm_eval.utils import make_table  # noqa: E402


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "1")


def export(bench: Path, out: Path, *extra: str, split: str = SPLIT) -> Path:
    argv = ["export-lm-eval", f"data_dir={bench}", f"out_dir={out}", f"split={split}", *extra]
    assert main(argv) == 0
    return out


def run(tasks_dir: Path, out: Path, model: Any, **options: Any) -> tuple[Path, dict[str, Any]]:
    """What ``lm_eval --include_path <tasks_dir> --tasks reasonbench --log_samples
    --output_path <out>`` does, through its Python API (only our tasks indexed: faster): the
    results file and the results (what lm_eval prints as its table)."""
    tracker = EvaluationTracker(output_path=str(out))
    results = simple_evaluate(
        model=model,
        tasks=["reasonbench"],
        task_manager=TaskManager(include_path=str(tasks_dir), include_defaults=False),
        log_samples=True,
        evaluation_tracker=tracker,
        verbosity="ERROR",
        **options,
    )
    assert results is not None
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    for task, logged in samples.items():
        tracker.save_results_samples(task_name=task, samples=logged)
    (results_file,) = out.rglob("results_*.json")
    return results_file, results


def harness_metrics(results_file: Path) -> dict[str, dict[str, float | None]]:
    """task -> metric -> value, as lm-eval reported them."""
    reported = json.loads(results_file.read_text())["results"]
    return {
        task: {
            k.removesuffix(",none"): v
            for k, v in values.items()
            if k.endswith(",none") and "_stderr" not in k
        }
        for task, values in reported.items()
        if task != "reasonbench"
    }


def import_and_analyze(
    bench: Path, results_file: Path, tmp: Path, name: str, n: int,
    capsys: pytest.CaptureFixture[str],
) -> tuple[dict[str, Any], str]:  # fmt: skip
    """import-lm-eval of the run, then analyze: the metrics and what the import printed."""
    preds = tmp / "preds"
    argv = ["import-lm-eval", f"log={results_file.parent.parent}", f"data_dir={bench}",
            f"predictions_dir={preds}", f"name={name}"]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for target in TARGETS_ALL:
        assert f"{name}-{target}: {n} records of {SPLIT} ({target}) from lm-eval task " in printed
    assert printed.count("metrics equal the records'") == len(TARGETS_ALL)
    return analyzed(bench, preds, tmp / "metrics.json"), printed


def lm_eval_table(results: dict[str, Any], tasks: tuple[str, ...]) -> list[str]:
    """The header and the rows of ``tasks`` in the table lm_eval prints."""
    lines, task, kept = make_table(results).splitlines(), None, []
    for i, line in enumerate(lines):
        if line.startswith("| - "):
            task = line.split("|")[1].strip().removeprefix("- ")
        if i < 2 or task in tasks:
            kept.append(line)
    return kept


def test_the_tiny_model_through_lm_eval_lands_in_analyze(
    small_bench: Path, tiny_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = {small_bench: "rb", tmp_path / "lm_eval_tasks": "lm_eval_tasks",
             tmp_path / "preds": "preds", tmp_path / "metrics.json": "metrics.json",
             tmp_path / "tables": "tables"}  # fmt: skip
    tasks = export(small_bench, tmp_path / "lm_eval_tasks")
    assert not not_in_docs(as_in_docs(capsys.readouterr().out, names))
    assert sorted(p.name for p in tasks.glob("*.yaml")) == sorted(
        ["reasonbench.yaml", *(f"reasonbench_{t}.yaml" for t in TARGETS_ALL)]
    )
    stats = read_manifest(small_bench, required=True)["stats"]  # what generate printed
    assert (
        f"wrote {stats['main_cases']:,} main cases and {stats['controls']:,} controls to rb\n"
        in DOC
    )
    model_dir = build_tiny(small_bench, tiny_cache)
    assert (
        f"\ntiny/{model_dir.name}\n" in DOC
        and f"pretrained=tiny/{model_dir.name},dtype=float32 " in DOC
    )
    results_file, results = run(
        tasks, tmp_path / "lm_eval_out", "hf",
        model_args={"pretrained": str(model_dir), "dtype": "float32"}, device="cpu",
        batch_size=30, gen_kwargs="max_gen_toks=4",
    )  # fmt: skip
    assert not not_in_docs(lm_eval_table(results, SHOWN))
    capsys.readouterr()  # lm-eval's own log lines (the docs leave them out)
    analyze, printed = import_and_analyze(small_bench, results_file, tmp_path, "tiny-lm-eval", 30,
                                          capsys)  # fmt: skip
    assert not not_in_docs(as_in_docs(printed, names))
    reported = harness_metrics(results_file)
    for target in TARGETS_ALL:  # lm-eval's numbers are analyze's
        assert_same(reported[f"reasonbench_{target}"], analyze[f"tiny-lm-eval-{target}"][SPLIT])
        assert analyze[f"tiny-lm-eval-{target}"][SPLIT]["parse_failure_rate"] == 1.0
    # the records keep the harness's raw outputs, and the context was the frozen prompt + cue
    (samples,) = results_file.parent.glob("samples_reasonbench_direct_receipt_*.jsonl")
    logged = [json.loads(line) for line in samples.read_text().splitlines()]
    records_file = tmp_path / "preds" / "tiny-lm-eval-direct_receipt" / f"{SPLIT}-seed0.jsonl"
    records = read_predictions(records_file)
    assert {s["doc"]["id"]: s["filtered_resps"][0] for s in logged} == {
        r.example_id: r.raw_output for r in records
    }
    assert all(r.raw_output for r in records)  # four tokens of text, kept whole
    assert not not_in_docs(records_file.read_text(encoding="utf-8").splitlines()[:1])
    contexts = [s["arguments"]["gen_args_0"]["arg_0"] for s in logged]
    assert contexts == [prompt_of(s["doc"]["prompt"]) for s in logged]
    summary = json.loads(records_file.with_name(f"{SPLIT}-seed0.import.json").read_text())
    assert summary["harness"] == "lm-eval" and summary["harness_version"] == "0.4.13"
    assert summary["model"] == str(model_dir) and summary["records"] == 30
    # the worked example ends in the tables, the harness's model in its own rows
    tables = tmp_path / "tables"
    argv = ["tables", f"data_dir={small_bench}", f"metrics={tmp_path / 'metrics.json'}",
            f"out_dir={tables}"]  # fmt: skip
    assert main(argv) == 0
    assert not not_in_docs(as_in_docs(capsys.readouterr().out, names))
    assert not not_in_docs(table_rows(tables / "tables" / "shift.md", "tiny-lm-eval-"))


class ScriptedLM(LM):  # type: ignore[misc]
    """Answers each request from its document (the scripted answers of conftest.py)."""

    def __init__(self, scripts: dict[str, Script]) -> None:
        super().__init__()
        self.scripts = scripts

    def generate_until(self, requests: list[Any], disable_tqdm: bool = False) -> list[str]:
        return [self.scripts[r.doc["target"]].by_id[r.doc["id"]] for r in requests]

    def loglikelihood(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError  # the tasks only generate

    def loglikelihood_rolling(self, requests: list[Any], disable_tqdm: bool = False) -> list[Any]:
        raise NotImplementedError


@pytest.fixture(scope="module")
def scripted_run(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four tasks with the instruction and one solved example, answered by the script."""
    tmp = tmp_path_factory.mktemp("scripted")
    tasks = export(small_bench, tmp / "tasks", "instruction=true")
    scripts = {t: Script(small_bench, t) for t in TARGETS_ALL}
    return run(tasks, tmp / "lm_eval_out", ScriptedLM(scripts), num_fewshot=1)[0]


def test_scripted_answers_score_alike_in_lm_eval_and_analyze(
    small_bench: Path, scripted_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    analyze, _ = import_and_analyze(small_bench, scripted_run, tmp_path, "scripted", 30, capsys)
    reported = harness_metrics(scripted_run)
    for target in TARGETS_ALL:
        assert_same(reported[f"reasonbench_{target}"], analyze[f"scripted-{target}"][SPLIT])
    direct = analyze["scripted-direct_receipt"][SPLIT]
    assert direct["parse_failure_rate"] == pytest.approx(0.2)  # "I cannot tell.", 1 in 5
    assert 0.2 <= direct["receipt_accuracy"] <= 0.8
    assert all(v is not None for v in direct.values())  # every metric has examples to count
    # the context: the target's instruction, one solved train example, the frozen prompt + cue
    (samples,) = scripted_run.parent.glob("samples_reasonbench_direct_receipt_*.jsonl")
    first = json.loads(samples.read_text().splitlines()[0])
    context = first["arguments"]["gen_args_0"]["arg_0"]
    assert context.startswith(instruction("direct_receipt") + "\n\n")
    assert context.endswith(prompt_of(first["doc"]["prompt"]))
    assert context.count("\n\nAnswer:\n") == 2


def test_a_model_on_the_locked_test_and_its_controls_gets_what_no_harness_computes(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = tmp_path / "predictions"
    for split in ("test_locked", "controls_locked"):  # one task directory and run per split
        tasks = export(small_bench, tmp_path / split, "targets=[direct_receipt]", split=split)
        script = Script(small_bench, "direct_receipt", split)
        run(tasks, tmp_path / "runs" / split, ScriptedLM({"direct_receipt": script}))
    argv = ["import-lm-eval", f"log={tmp_path / 'runs'}", f"data_dir={small_bench}",
            f"predictions_dir={preds}", "name=scripted"]  # fmt: skip
    assert main(argv) == 0
    assert main(argv) == 0  # the same import again replaces both splits' files: both are ours
    files = sorted(p.name for p in (preds / "scripted-direct_receipt").glob("*.jsonl"))
    assert files == ["controls_locked-seed0.jsonl", "test_locked-seed0.jsonl"]  # one method
    metrics = tmp_path / "metrics.json"
    assert main(["analyze", f"data_dir={small_bench}", f"predictions_dir={preds}",
                 f"out={metrics}", "replicates=50", "comparisons=[]", "progress=false"]) == 0  # fmt: skip
    report = json.loads(metrics.read_text())
    seed = report["methods"]["scripted-direct_receipt"]["seeds"]["0"]
    assert set(seed["splits"]) == {"test_locked", "controls_locked"}
    assert seed["consistency"] and seed["subgroups"]  # paired consistency, structural subgroups
    intervals = report["inference"]["splits"]["test_locked"]
    assert "scripted-direct_receipt" in json.dumps(intervals)  # the hierarchical bootstrap's CIs


def test_import_refuses_what_analyze_could_not_trust(
    small_bench: Path, scripted_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(scripted_run.parent, logs)
    results_file = logs / scripted_run.name
    preds = tmp_path / "preds"

    def refused(log: Path, bench: Path = small_bench) -> str:
        argv = ["import-lm-eval", f"log={log}", f"data_dir={bench}", f"predictions_dir={preds}"]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith("reasonbench import-lm-eval: error: ")
        return err

    original = results_file.read_text()
    data = json.loads(original)
    data["results"]["reasonbench_cube"]["revised_verdict_accuracy,none"] = 0.99
    results_file.write_text(json.dumps(data))
    assert "the harness reported revised_verdict_accuracy = 0.99, but" in refused(results_file)
    results_file.write_text(original)
    other = tmp_path / "other-build"
    shutil.copytree(small_bench, other, ignore=shutil.ignore_patterns("hf"))
    manifest = json.loads((other / "MANIFEST.json").read_text())
    manifest["files"]["extra.txt"] = "0" * 64
    (other / "MANIFEST.json").write_text(json.dumps(manifest))
    assert "was made on another build" in refused(results_file, other)
    (samples,) = logs.glob("samples_reasonbench_cube_*.jsonl")
    lines = samples.read_text().splitlines(keepends=True)
    samples.write_text("".join(lines[:4]))  # lines lost from a run without a limit
    said = refused(results_file)
    assert "answers 4 of the 30 examples of split shift_depth" in said
    assert "26 sample(s) missing from a run without a limit; the log is incomplete" in said
    data["results"]["reasonbench_cube"]["revised_verdict_accuracy,none"] = json.loads(original)[
        "results"]["reasonbench_cube"]["revised_verdict_accuracy,none"]  # fmt: skip
    data["config"]["limit"] = 4  # what lm_eval --limit 4 records, beside 4 samples
    results_file.write_text(json.dumps(data))
    assert "the run had limit=4; analyze scores whole splits" in refused(results_file)
    results_file.write_text(original)
    samples.write_text("".join(lines))
    others = json.loads(original)
    for config in others["configs"].values():  # every task another benchmark's
        config.pop("metadata", None)
    results_file.write_text(json.dumps(others))
    said = refused(results_file)
    assert said.startswith(
        f"reasonbench import-lm-eval: error: no log of a reasonbench task in {results_file} "
        f"(skipped {len(others['configs'])} log(s) of other tasks: {results_file} (task "
    ), said
    results_file.write_text(original)
    samples.write_text("".join(lines[:3]) + lines[3][:25])  # cut while it was written
    assert f"{samples}:4: the line is cut short (the file was truncated): " in refused(results_file)
    samples.write_text("".join(lines[:4] + lines[:1]))
    assert "answered more than once" in refused(results_file)
    samples.unlink()
    assert "run lm_eval with --log_samples" in refused(results_file)
    assert "no results_*.json under" in refused(other)
    assert "not found (give lm_eval's --output_path" in refused(tmp_path / "none")
    assert not preds.exists()  # a refused import writes nothing
