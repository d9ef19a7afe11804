"""The client against a real OpenAI-compatible server: the tiny model behind ``transformers
serve`` on loopback, and a real fault-injecting proxy in front of it. No mock server."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from reasonbench.cache import GenerationCache
from reasonbench.serve import (
    Client,
    Endpoint,
    Reply,
    RetryPolicy,
    Sampling,
    ServeError,
    write_usage,
)
from reasonbench.serve.client import EXCERPT
from tests.serve.servers import FaultProxy, TinyServer

SHORT = Sampling(max_tokens=4)
FAST = RetryPolicy(backoff_s=0.01, max_backoff_s=0.05, max_consecutive_failures=4)


def endpoint(url: str, model: Path, api: str = "completions", **kw: object) -> Endpoint:
    return Endpoint(url, str(model), api=api, **kw)  # type: ignore[arg-type]


def cache_keys(directory: Path) -> list[str]:
    return [
        json.loads(line)["key"] for line in (directory / "rank-0.jsonl").read_text().splitlines()
    ]


@pytest.mark.parametrize("api", ["completions", "chat"])
def test_answers_then_a_rerun_sends_no_request(
    server: TinyServer, served_model: Path, prompts: list[str], api: str, tmp_path: Path
) -> None:
    first = Client(endpoint(server.base_url, served_model, api, concurrency=3), tmp_path)
    replies = first.ask(prompts, SHORT)
    assert len(replies) == len(prompts) and first.usage.fetched == len(prompts)
    assert all(r.completion_tokens and 1 <= r.completion_tokens <= 4 for r in replies)
    assert first.usage.tokens["prompt_tokens"] > 0 and not any(r.cached for r in replies)
    again = Client(endpoint(server.base_url, served_model, api), tmp_path)
    assert again.ask(prompts, SHORT) == [replace(r, cached=True) for r in replies]
    assert again.usage.requests == 0 and again.usage.cached == len(prompts)


def test_sampling_follows_the_seed(
    server: TinyServer, served_model: Path, prompts: list[str], tmp_path: Path
) -> None:
    hot = Sampling(temperature=1.5, max_tokens=6)

    def ask(seed: int, where: str) -> list[Reply]:
        client = Client(endpoint(server.base_url, served_model, concurrency=1), tmp_path / where)
        return client.ask(prompts[:2], hot, seed)

    a = [r.raw for r in ask(0, "a")]
    assert [r.raw for r in ask(0, "b")] == a  # the server replays a seed
    assert any([r.raw for r in ask(s, "c")] != a for s in (1, 2, 3))


def test_killed_server_run_stops_then_resumes_without_duplicates(
    server: TinyServer, served_model: Path, prompts: list[str], tmp_path: Path
) -> None:
    reference = [r.raw for r in Client(endpoint(server.base_url, served_model)).ask(prompts, SHORT)]
    cache = tmp_path / "cache"
    client = Client(endpoint(server.base_url, served_model, concurrency=2), cache, FAST)

    def crash_after_two(_reply: object) -> None:
        if client.usage.fetched == 2:
            server.kill()

    client.on_reply = crash_after_two
    with pytest.raises(ServeError, match="consecutive failed requests") as stopped:
        client.ask(prompts, SHORT)
    assert "\n" not in str(stopped.value) and "rerun resumes" in str(stopped.value)
    kept = cache_keys(cache)
    assert 2 <= len(kept) < len(prompts) and len(set(kept)) == len(kept)
    assert client.usage.failures["connection"] >= 1

    server.start()
    resumed = Client(endpoint(server.base_url, served_model, concurrency=2), cache, FAST)
    replies = resumed.ask(prompts, SHORT)
    assert resumed.usage.cached == len(kept) and resumed.usage.fetched == len(prompts) - len(kept)
    assert [r.raw for r in replies] == reference  # nothing lost, nothing answered twice
    final = cache_keys(cache)
    assert len(final) == len(set(final)) == len(prompts)


def test_faults_are_retried_or_counted(
    proxy: FaultProxy, served_model: Path, prompts: list[str], tmp_path: Path
) -> None:
    started = time.monotonic()
    plain = Client(endpoint(proxy.base_url, served_model, concurrency=1))
    reference = [r.raw for r in plain.ask(prompts[:3], SHORT)]
    # a timeout well above this machine's answer time (however loaded), and a stall above that
    timeout = max(1.0, 5 * (time.monotonic() - started) / 3)
    proxy.slow_s = 2 * timeout
    proxy.seen.clear()
    proxy.queue(["429", "500", "truncate", "hangup", "slow", "429-date", "503"])
    client = Client(
        endpoint(proxy.base_url, served_model, concurrency=1, timeout_s=timeout),
        tmp_path,
        RetryPolicy(backoff_s=0.01, max_backoff_s=0.05, max_consecutive_failures=10),
    )
    replies = client.ask(prompts[:3], SHORT)
    assert [r.raw for r in replies] == reference
    assert dict(client.usage.failures) == {
        "http_429": 2, "http_5xx": 2, "bad_response": 2, "timeout": 1,
    }  # fmt: skip
    assert client.usage.retries == 7 and client.usage.requests == 7 + 3
    after_429 = [
        b - a
        for (a, f, _), (b, _, _) in zip(proxy.seen, proxy.seen[1:], strict=False)
        if f == "429"
    ]
    assert after_429 and min(after_429) >= 0.95  # Retry-After: 1 honoured (backoff is 0.05 s)
    usage = tmp_path / "usage.json"
    write_usage(usage, client.usage)
    assert json.loads(usage.read_text())["failures"]["timeout"] == 1


@pytest.mark.parametrize("api", ["completions", "chat"])
def test_consecutive_failures_stop_keeping_what_was_answered(
    proxy: FaultProxy, served_model: Path, prompts: list[str], tmp_path: Path, api: str
) -> None:
    client = Client(endpoint(proxy.base_url, served_model, api, concurrency=1), tmp_path, FAST)
    client.ask(prompts[:2], SHORT)
    proxy.queue(["500"] * 10)
    with pytest.raises(ServeError, match=r"4 consecutive failed requests.*HTTP 500") as stopped:
        client.ask(prompts, SHORT)
    # chat answers came back before: the model has a template, the 500s are something else
    assert "chat template" not in str(stopped.value)
    assert len(GenerationCache(tmp_path)) == 2
    proxy.faults.clear()
    proxy.queue(["429-long"])  # Retry-After: 3600, more than max_wait_s
    with pytest.raises(ServeError, match="retry after 3600 s"):
        client.ask(prompts, SHORT)
    assert len(GenerationCache(tmp_path)) == 2


def test_a_500_then_dropped_connections_still_names_the_status(
    proxy: FaultProxy, served_model: Path, prompts: list[str], tmp_path: Path
) -> None:
    """A server that answers 500 and then drops connections (transformers serve, a chat request
    to a model without a chat template, under load): the stop line names the last failure and
    the last HTTP status, so the chat-template hint has its evidence beside it."""
    client = Client(endpoint(proxy.base_url, served_model, "chat", concurrency=1), tmp_path, FAST)
    proxy.queue(["500", "hangup", "hangup", "hangup"])
    with pytest.raises(ServeError) as stopped:
        client.ask(prompts[:1], SHORT)
    line = str(stopped.value)
    assert "4 consecutive failed requests" in line and "; last HTTP error: HTTP 500" in line
    assert "if the model has no chat template, set" in line  # no chat answer ever came back
    assert "\n" not in line


def leaks(secret: str, text: str) -> bool:
    """Whether any 5 characters in a row of ``secret`` show in ``text``."""
    return any(secret[i : i + 5] in text for i in range(len(secret) - 4))


def test_refusal_stops_at_once_and_never_shows_the_key(
    proxy: FaultProxy, served_model: Path, prompts: list[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    secret = "sk-Q7vZ3xW9kP2mR8tYc4"  # no 5 characters in a row of it occur in a path
    monkeypatch.setenv("RB_TEST_API_KEY", secret)
    ep = endpoint(proxy.base_url, served_model, api_key_env="RB_TEST_API_KEY")
    client = Client(replace(ep, concurrency=1), tmp_path, FAST)
    client.ask(prompts[:2], SHORT)
    assert all(h.get("Authorization") == f"Bearer {secret}" for _, _, h in proxy.seen)
    # a server echoing the key back, across the point where the quoted body is cut
    proxy.body401 = "invalid api key: " + "." * (EXCERPT - 17 - 6) + secret + " (check it)"
    proxy.queue(["401"])
    with pytest.raises(ServeError, match="HTTP 401.*not retryable") as refused:
        client.ask(prompts[2:4], SHORT)
    assert client.usage.requests == 3  # no retry of a refusal
    # a server quoting the key in an answer: kept, cached and returned with the key redacted
    proxy.echo_key = True
    echoed = client.ask(prompts[:2], SHORT, seed=7)
    assert all(r.raw.endswith(" ***") and r.text.endswith(" ***") for r in echoed)
    write_usage(tmp_path / "usage.json", client.usage, {"endpoint": ep.to_json()})
    shown = [str(refused.value), repr(ep), json.dumps(ep.to_json()), repr(echoed)]
    shown += [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    assert not [text for text in shown if leaks(secret, text)]
    assert "***" in str(refused.value)  # redacted first, then cut: the marker shows, no key
