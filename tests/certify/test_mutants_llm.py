"""The llm judge's configuration as built (endpoint, decoding, id) and each execution against the
canned OpenAI-compatible server (tests/serve/servers.py; no model): the seed of run ``r``, the
key sent from its variable, one client per worker thread, and a server that fails stopping
the judge for good. ``test_llm_judge.py`` covers the same ground end to end."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import reasonbench
from reasonbench.certify import (
    AdjudicatorUnavailable,
    ConfigError,
    PluginOptions,
    make_adjudicator,
)
from reasonbench.certify import llm as llm_module
from reasonbench.certify.llm import OPTIONS, LlmAdjudicator
from reasonbench.serve import Client
from tests.certify.llm_case import HYBRID, LABELS, PROMPT, SOURCES, TEMPLATE
from tests.serve.servers import CannedServer, free_port

URL = "http://127.0.0.1:9/v1"  # nothing listens there: only tests that send nothing use it


def judge(url: str = URL, **options: Any) -> LlmAdjudicator:
    extra = {"model": "judge-model", "template": TEMPLATE, "retry": {"max_attempts": 1}, **options}
    made = make_adjudicator(f"llm:{url}", PluginOptions(3.5, extra, LABELS, SOURCES))
    assert isinstance(made, LlmAdjudicator)
    return made


def config_error(**options: Any) -> str:
    with pytest.raises(ConfigError) as info:
        judge(**options)
    return str(info.value)


# --- configuration, no server ----------------------------------------------------------------


def test_an_unknown_option_lists_the_known_ones() -> None:
    assert config_error(temprature=1.0) == (
        "plugin_options.temprature: not an option of the llm judge; its options: "
        + ", ".join(OPTIONS)
    )


def test_only_a_missing_model_is_reported_as_missing() -> None:
    assert config_error(api=None) == "plugin_options.api=None: wrong type"
    assert config_error(model=None) == "plugin_options.model: name the served model (required)"


def test_the_endpoint_and_decoding_are_built_from_the_options() -> None:
    adjudicator = judge("https://judge.example/v1", api_key_env="JUDGE_KEY", stop=["a", "b"])
    endpoint = adjudicator.endpoint
    assert (endpoint.base_url, endpoint.model, endpoint.api_key_env) == (
        "https://judge.example/v1",
        "judge-model",
        "JUDGE_KEY",
    )
    # one request per execution (certify's workers run several at once); the run's timeout
    assert (endpoint.concurrency, endpoint.timeout_s) == (1, 3.5)
    assert adjudicator.sampling.stop == ("a", "b")
    assert judge(stop="###").sampling.stop == ("###",)  # one stop string, not its characters


def test_a_template_file_names_itself_in_its_errors(tmp_path: Path) -> None:
    path = tmp_path / "prompt.txt"
    path.write_text("Claim: {claim}\nGrader: {grader}\n", encoding="utf-8")
    assert config_error(template=None, template_file=str(path)).startswith(
        f"plugin_options.template_file={path}: slot {{grader}} names no source of the cases"
    )


def test_a_chat_prompt_is_the_system_message_then_the_filled_template() -> None:
    assert judge(system="You judge expenses.").prompt(HYBRID) == [
        {"role": "system", "content": "You judge expenses."},
        {"role": "user", "content": PROMPT},
    ]
    assert judge().prompt(HYBRID) == PROMPT


def test_the_id_is_a_digest_of_the_sorted_json_of_what_decides_the_answer() -> None:
    """The id is the certify cache key: a change in how it is computed silently re-asks every
    cached execution of an unchanged judge, so the recipe is pinned here (non-ASCII text is
    digested as UTF-8, not as escapes)."""
    template = "Forderung: {claim} – Grenze: {limit}"
    adjudicator = judge(template=template, system="Sei fair.", temperature=0.5, top_p=0.9,
                        max_tokens=4, stop="\n", seed=7, extra_body={"top_k": 3},
                        verdict_regex=r"(approve|deny|refer)")  # fmt: skip
    decides = {
        "model": "judge-model",
        "api": "chat",
        "template": template,
        "system": "Sei fair.",
        "sampling": {"temperature": 0.5, "top_p": 0.9, "max_tokens": 4, "stop": ["\n"]},
        "seed": 7,
        "extra_body": {"top_k": 3},
        "labels": ["approve", "deny", "refer"],
        "verdict_regex": "(approve|deny|refer)",
    }
    text = json.dumps(decides, sort_keys=True, ensure_ascii=False)
    assert adjudicator.id == f"llm:judge-model [{hashlib.sha256(text.encode()).hexdigest()[:16]}]"


def test_a_template_file_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """Under the C locale (a bare container: ASCII), a template that is not ASCII is read as
    written: a template file is UTF-8, not in the locale's encoding."""
    path = tmp_path / "prompt.txt"
    path.write_text("Forderung: {claim} – Grenze: {limit}", encoding="utf-8")
    code = (
        "import json, sys; from reasonbench.certify import PluginOptions, make_adjudicator; "
        "options = PluginOptions(3.0, {'model': 'm', 'template_file': sys.argv[1]}, ('deny',)); "
        "print(json.dumps(make_adjudicator('llm:http://127.0.0.1:9/v1', options).prompt("
        "{'claim': 1, 'limit': 2})))"
    )
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env["PYTHONPATH"] = str(Path(reasonbench.__file__).parents[1])  # the reasonbench under test
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert json.loads(done.stdout) == "Forderung: 1 – Grenze: 2"


# --- against the canned server ---------------------------------------------------------------


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer(lambda prompt, seed: f"{LABELS[seed % 3]}, as the rubric says")
    try:
        yield server
    finally:
        server.close()


def test_run_r_asks_with_seed_plus_r_and_a_call_is_run_0(canned: CannedServer) -> None:
    adjudicator = judge(canned.base_url, seed=10)
    assert adjudicator.execute(HYBRID, 2) == LABELS[12 % 3]
    assert adjudicator(HYBRID) == LABELS[10 % 3]
    (_, first, _), (_, second, _) = canned.requests
    assert (first["seed"], second["seed"]) == (12, 10)
    assert first["messages"] == [{"role": "user", "content": PROMPT}]
    assert (first["max_tokens"], first["temperature"]) == (16, 0.0)


def test_the_key_is_sent_from_its_variable(
    canned: CannedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_KEY", "sk-test")
    judge(canned.base_url, api_key_env="JUDGE_KEY").execute(HYBRID, 0)
    ((_, _, headers),) = canned.requests
    assert headers["Authorization"] == "Bearer sk-test"


def test_each_worker_thread_keeps_one_client(
    canned: CannedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Client] = []

    class Counted(Client):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(llm_module, "Client", Counted)
    adjudicator = judge(canned.base_url)
    adjudicator.execute(HYBRID, 0)
    adjudicator.execute(HYBRID, 1)
    assert len(made) == 1
    worker = threading.Thread(target=adjudicator.execute, args=(HYBRID, 2))
    worker.start()
    worker.join(10)
    assert len(made) == 2 and len(canned.requests) == 3
    assert made[0].endpoint is adjudicator.endpoint and made[0].retry is adjudicator.retry
    assert made[0].cache is None  # certify's cache is the only one


def test_a_failing_server_stops_the_judge_after_one_attempt() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    adjudicator = judge(url, api="completions")
    with pytest.raises(AdjudicatorUnavailable) as stopped:
        adjudicator(HYBRID)
    message = str(stopped.value)
    # retry={"max_attempts": 1} reached the client: one attempt, not the default eight
    assert message.startswith(f"the llm judge stopped: a request to {url}/completions failed 1 ")
    with pytest.raises(AdjudicatorUnavailable) as again:
        adjudicator.execute(HYBRID, 1)
    assert str(again.value) == message
