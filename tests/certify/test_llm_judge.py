"""The llm judge against a canned OpenAI-compatible server (answers are a function of the prompt
and seed; no model): what each execution sends, how the verdict is read from the answer, run
``r`` asking with seed ``seed + r``, and a server that fails stopping the run. Fast enough for
every mutant of ``reasonbench/certify`` (docs/testing.md); ``test_llm.py`` runs the same judge
against the real tiny model."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import (
    AdjudicatorFailure,
    AdjudicatorUnavailable,
    CertifyConfig,
    PluginOptions,
    make_adjudicator,
    run_certify,
)
from reasonbench.certify.llm import LlmAdjudicator
from tests.certify.conftest import receipts
from tests.certify.llm_case import HYBRID, LABELS, PROMPT, SOURCES, TEMPLATE
from tests.serve.servers import CannedServer, free_port


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer(lambda prompt, seed: "deny")
    try:
        yield server
    finally:
        server.close()


def judge(url: str, **options: Any) -> LlmAdjudicator:
    extra = {"model": "judge-model", "template": TEMPLATE, "retry": {"max_attempts": 1}, **options}
    made = make_adjudicator(f"llm:{url}", PluginOptions(3.0, extra, LABELS, SOURCES))
    assert isinstance(made, LlmAdjudicator)
    return made


def test_an_execution_sends_the_filled_prompt_with_its_decoding(canned: CannedServer) -> None:
    options = {"api": "completions", "temperature": 1, "top_p": 0.5, "max_tokens": 7,
               "stop": "\n", "seed": 40, "extra_body": {"top_k": 3}}  # fmt: skip
    adjudicator = judge(canned.base_url, **options)
    assert adjudicator.execute(HYBRID, 2) == "deny"
    assert adjudicator(HYBRID) == "deny"  # a plain call is run 0
    (path, body, _), (_, second, _) = canned.requests
    assert path == "v1/completions"
    assert body == {"model": "judge-model", "prompt": PROMPT, "max_tokens": 7, "temperature": 1.0,
                    "top_p": 0.5, "stop": ["\n"], "seed": 42, "top_k": 3}  # fmt: skip
    assert second["seed"] == 40
    assert adjudicator.endpoint.timeout_s == 3.0 and adjudicator.endpoint.concurrency == 1


def test_chat_sends_the_system_prompt_first(canned: CannedServer) -> None:
    adjudicator = judge(canned.base_url, system="You judge expenses.", stop=["a", "b"])
    adjudicator.execute(HYBRID, 0)
    ((path, body, _),) = canned.requests
    assert path == "v1/chat/completions" and body["stop"] == ["a", "b"]
    assert body["messages"] == [
        {"role": "system", "content": "You judge expenses."},
        {"role": "user", "content": PROMPT},
    ]
    assert body["max_tokens"] == 16 and body["temperature"] == 0.0 and body["seed"] == 0
    assert "top_p" not in body  # greedy


def test_the_verdict_is_read_from_the_answer_without_its_reasoning(canned: CannedServer) -> None:
    canned.reply = lambda prompt, seed: "<think>refer? no</think>\n**Approve** it"
    assert judge(canned.base_url).execute(HYBRID, 0) == "approve"
    canned.reply = lambda prompt, seed: "I cannot say"
    with pytest.raises(AdjudicatorFailure) as unreadable:
        judge(canned.base_url).execute(HYBRID, 0)
    assert unreadable.value.kind == "unparsable" and unreadable.value.replayable
    canned.reply = lambda prompt, seed: f"verdict={LABELS[seed % 3]}"
    by_regex = judge(canned.base_url, verdict_regex=r"verdict=(\w+)")
    assert [by_regex.execute(HYBRID, run) for run in range(3)] == list(LABELS)


def test_a_failing_server_stops_the_judge_for_every_worker() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    adjudicator = judge(url, api="completions")
    with pytest.raises(AdjudicatorUnavailable) as stopped:
        adjudicator.execute(HYBRID, 0)
    message = str(stopped.value)
    assert message.startswith(f"the llm judge stopped: a request to {url}/completions failed 1 ")
    assert "kept" not in message  # the client keeps nothing: certify's cache does
    with pytest.raises(AdjudicatorUnavailable) as again:  # no second attempt
        adjudicator.execute(HYBRID, 1)
    assert str(again.value) == message


def test_certify_through_the_llm_judge(canned: CannedServer, tmp_path: Path) -> None:
    # the judge approves a claim within its limit: the new limit alone changes the verdict
    canned.reply = lambda prompt, seed: "approve" if "Limit: 100" in prompt else "deny"
    cases = tmp_path / "cases.jsonl"
    case = {"id": "raise", "sources": {"claim": {"old": 80, "new": 80},
                                       "limit": {"old": 50, "new": 100}}}  # fmt: skip
    cases.write_text(json.dumps(case) + "\n")
    options = {"model": "judge-model", "template": TEMPLATE}
    config = CertifyConfig(cases, f"llm:{canned.base_url}", LABELS, tmp_path / "out",
                           progress=False, workers=2, plugin_options=options)  # fmt: skip
    summary = run_certify(config)
    assert summary.counts["changed"] == 1
    assert receipts(tmp_path / "out")["raise"]["receipt"] == [["limit"]]
    asked = len(canned.requests)
    run_certify(dataclasses.replace(config, overwrite=True))
    assert len(canned.requests) == asked  # the rerun reads certify's cache
