"""ReasonBench in inspect_ai, end to end and offline: the task file run by inspect (a scripted
model through inspect's mock provider; the tiny model served by ``transformers serve`` through its
OpenAI-compatible provider), ``import-inspect`` turns the ``.eval`` logs into prediction records,
and ``analyze`` gives exactly inspect's numbers on the same outputs. The served model's run is
the worked example of docs/integrations.md: every output it shows as checked is what this run
prints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from reasonbench.cli.main import main
from reasonbench.integrations.common import prompt_of
from reasonbench.io import read_split
from reasonbench.judges.instructions import instruction
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
from tests.serve.servers import TinyServer
from tests.served import CHAT_TEMPLATE

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="the inspect extra (setup_env.sh installs it)"
)

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import EvalLog  # noqa: E402
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASK_FILE = "reasonbench/integrations/inspect.py"  # as typed in a checkout: inspect globs it


def import_and_analyze(
    bench: Path, logs: Path, preds: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, Any], str]:
    """import-inspect of the logs, then analyze: the metrics and what the import printed."""
    argv = ["import-inspect", f"log={logs}", f"data_dir={bench}", f"predictions_dir={preds}",
            f"name={name}"]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for target in TARGETS_ALL:
        assert f"{name}-{target}: 30 records of {SPLIT} ({target}) from inspect task " in printed
    assert printed.count("metrics equal the records'") == len(TARGETS_ALL)
    return analyzed(bench, preds, preds.with_name(f"metrics-{preds.name}.json")), printed


def reported(log: EvalLog) -> dict[str, float | None]:
    assert log.status == "success" and log.results is not None
    (score,) = log.results.scores
    return {name: m.value for name, m in score.metrics.items()}


def scripted_model(script: Script) -> Any:
    """inspect's mock provider answering from the script, by the prompt it is sent."""

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content("mockllm/model", script.by_prompt[messages[-1].text])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer
        return output

    return get_model("mockllm/model", custom_outputs=answer)


def test_scripted_answers_score_alike_in_inspect_and_analyze(
    small_bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(ROOT)
    logs: dict[str, EvalLog] = {}
    for target in TARGETS_ALL:  # `inspect eval reasonbench/integrations/inspect.py -T ...`
        args = {"target": target, "split": SPLIT, "data_dir": str(small_bench),
                "instruction": target == "cube"}  # fmt: skip
        (logs[target],) = inspect_eval(
            TASK_FILE, task_args=args, model=scripted_model(Script(small_bench, target)),
            log_dir=str(tmp_path / "logs"), display="none",
        )  # fmt: skip
    # inspect's ./logs is shared by every task: a log of another task there is skipped, named
    from inspect_ai.log import write_eval_log

    other = logs["cube"].model_copy(deep=True)
    other.eval.task, other.eval.metadata = "someone_elses_task", {}
    write_eval_log(other, str(tmp_path / "logs" / "other.eval"))
    preds = tmp_path / "predictions"
    analyze, printed = import_and_analyze(small_bench, tmp_path / "logs", preds, "scripted", capsys)
    assert (
        f"skipped 1 log(s) of other tasks: {tmp_path / 'logs' / 'other.eval'} (task "
        "'someone_elses_task')\n"
    ) in printed
    for target in TARGETS_ALL:
        assert_same(reported(logs[target]), analyze[f"scripted-{target}"][SPLIT])
    # a log cut short names inspect's own reason, not only its exception's type
    cut = tmp_path / "cut" / "run.eval"
    cut.parent.mkdir()
    cut.write_bytes(Path(str(logs["cube"].location)).read_bytes()[:300])
    argv = ["import-inspect", f"log={cut}", f"data_dir={small_bench}",
            f"predictions_dir={tmp_path / 'cut-preds'}"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(
        rf"reasonbench import-inspect: error: {re.escape(str(cut))}: not a readable inspect log "
        r"\(\w+: [^)]+.*\); give an inspect log directory or a \.eval file\n",
        err,
    ), err
    direct = analyze["scripted-direct_receipt"][SPLIT]
    assert direct["parse_failure_rate"] == pytest.approx(0.2)  # "I cannot tell.", 1 in 5
    assert all(v is not None for v in direct.values())  # every metric has examples to count
    sample = logs["cube"].samples[0]  # type: ignore[index]
    assert [m.role for m in sample.input] == ["system", "user"]  # type: ignore[union-attr]
    assert sample.input[0].text == instruction("cube")  # type: ignore[union-attr,index]
    records = read_predictions(preds / "scripted-cube" / f"{SPLIT}-seed0.jsonl")
    assert {s.id: s.output.completion for s in logs["cube"].samples or []} == {
        r.example_id: r.raw_output for r in records
    }


def test_the_served_tiny_model_through_inspect_lands_in_analyze(
    server: TinyServer, served_model: Path, small_bench: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from reasonbench.integrations.inspect import reasonbench

    preds = tmp_path / "preds-inspect"
    names = {small_bench: "rb", preds: "preds-inspect",
             tmp_path / "metrics-preds-inspect.json": "metrics-inspect.json",
             tmp_path / "tables-inspect": "tables-inspect"}  # fmt: skip
    assert f'printf %s "{CHAT_TEMPLATE}" > tiny-chat/chat_template.jinja' in DOC  # the fixture's
    prompts = {r["id"]: r["prompt"] for r in read_split(small_bench, SPLIT, ["id", "prompt"])}
    monkeypatch.setenv("LOCAL_API_KEY", "none")  # openai-api/<service> reads <SERVICE>_API_KEY
    tasks = [reasonbench(target=t, split=SPLIT, data_dir=str(small_bench)) for t in TARGETS_ALL]
    logs = inspect_eval(
        tasks, model=f"openai-api/local/{served_model}", model_base_url=server.base_url,
        max_tokens=4, log_dir=str(tmp_path / "inspect_logs"), display="none",
    )  # fmt: skip
    analyze, printed = import_and_analyze(small_bench, tmp_path / "inspect_logs", preds,
                                          "tiny-inspect", capsys)  # fmt: skip
    assert not not_in_docs(as_in_docs(printed, names))
    for target, log in zip(TARGETS_ALL, logs, strict=True):  # inspect's numbers are analyze's
        assert_same(reported(log), analyze[f"tiny-inspect-{target}"][SPLIT])
        assert analyze[f"tiny-inspect-{target}"][SPLIT]["parse_failure_rate"] == 1.0
        asked = {s.id: s.input[-1].text for s in log.samples or []}  # type: ignore[union-attr]
        assert asked == {i: prompt_of(p) for i, p in prompts.items()}  # the frozen prompt + cue
        records = read_predictions(preds / f"tiny-inspect-{target}" / f"{SPLIT}-seed0.jsonl")
        assert {s.id: s.output.completion for s in log.samples or []} == {
            r.example_id: r.raw_output for r in records
        }
    summary = json.loads((preds / "tiny-inspect-cube" / f"{SPLIT}-seed0.import.json").read_text())
    assert summary["harness"] == "inspect" and summary["records"] == 30
    assert summary["settings"]["model_base_url"] == server.base_url
    tables = tmp_path / "tables-inspect"
    argv = ["tables", f"data_dir={small_bench}", f"metrics={tmp_path / 'metrics-preds-inspect.json'}",
            f"out_dir={tables}"]  # fmt: skip
    assert main(argv) == 0
    assert not not_in_docs(as_in_docs(capsys.readouterr().out, names))
    assert not not_in_docs(table_rows(tables / "tables" / "shift.md", "tiny-inspect-"))


def test_a_relative_data_dir_is_taken_from_where_inspect_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reasonbench.integrations.inspect import HERE, resolve

    monkeypatch.setenv("PWD", str(tmp_path))  # the shell's directory
    monkeypatch.chdir(HERE)  # where inspect runs a task file
    assert resolve("rb") == tmp_path / "rb"
    assert resolve(str(tmp_path / "x")) == tmp_path / "x"
    monkeypatch.chdir(tmp_path / "..")  # the task built from Python: the working directory
    assert resolve("rb") == Path.cwd() / "rb"
