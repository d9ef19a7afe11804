"""Exact outputs of the client's pure parts, on hand-built objects: ``usage.json`` and the summary
line, each refusal message of the settings, what each reply shape reads as (or why it is not
one), the records beside results, the backoff's draw and the Retry-After clock (found by
mutation testing, docs/testing.md)."""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from email.utils import formatdate
from pathlib import Path

import pytest

from reasonbench.serve import (
    Endpoint,
    Prices,
    Reply,
    RetryPolicy,
    Sampling,
    ServeError,
    Usage,
    write_usage,
)
from reasonbench.serve.client import excerpt
from reasonbench.serve.retry import backoff, retry_after
from reasonbench.serve.wire import BadResponse, read_reply, request_body, request_key

URL = "http://127.0.0.1:1/v1"


def reply(
    prompt: int | None, completion: int | None, reasoning: int | None, cached: bool = False
) -> Reply:
    return Reply("k", "t", "t", None, "stop", prompt, completion, reasoning, cached=cached)


def busy_usage() -> Usage:
    """Three fetched answers (one without usage, counted first), one cached, failures, time."""
    usage = Usage(Prices(input_per_1m=100.01, output_per_1m=1000.0, currency="EUR"))
    usage.add(reply(None, None, None))
    usage.add(reply(1234, 56, 7))
    usage.add(reply(0, 0, 0))  # usage reported, as zero tokens
    usage.add(reply(10, 20, None, cached=True))
    usage.requests, usage.retries, usage.seconds = 5, 2, 1.23789
    usage.failures = Counter({"timeout": 1, "http_5xx": 2})
    return usage


def test_usage_json_holds_every_count_rounded() -> None:
    data = busy_usage().to_json()
    assert data == {
        "requests": 5,
        "answers_fetched": 3,
        "answers_cached": 1,
        "retries": 2,
        "failures": {"http_5xx": 2, "timeout": 1},
        "answers_without_usage": 1,
        "tokens": {"prompt_tokens": 1234, "completion_tokens": 56, "reasoning_tokens": 7},
        "tokens_cached": {"prompt_tokens": 10, "completion_tokens": 20, "reasoning_tokens": 0},
        "prices_per_1m": {"input": 100.01, "output": 1000.0, "currency": "EUR"},
        "cost": 0.179412,  # (1234 * 100.01 + 56 * 1000) / 1e6 = 0.17941234, to 6 places
        "cost_all": 0.200412,  # with the cached answer's 10 + 20 tokens: 0.20041244
        "seconds": 1.238,
        "requests_per_s": 2.42,  # 3 / 1.23789 = 2.4235...
    }
    assert list(data["failures"]) == ["http_5xx", "timeout"]  # sorted: the same bytes each run


def test_usage_json_of_a_run_that_fetched_nothing() -> None:
    data = Usage().to_json()
    assert (data["seconds"], data["requests_per_s"]) == (0.0, None)
    assert (data["cost"], data["cost_all"], data["failures"]) == (0.0, 0.0, {})
    assert data["prices_per_1m"] == {"input": 0.0, "output": 0.0, "currency": "USD"}


def test_usage_summary_line() -> None:
    assert busy_usage().summary() == (
        "3 fetched, 1 cached; 1234 prompt + 56 completion tokens (7 reasoning); "
        "cost 0.1794 EUR (all answers 0.2004); 2 retries; failures: http_5xx 2, timeout 1"
    )
    assert Usage().summary() == (
        "0 fetched, 0 cached; 0 prompt + 0 completion tokens (0 reasoning); "
        "cost 0.0000 USD (all answers 0.0000); 0 retries; failures: none"
    )


def test_write_usage_writes_the_json_and_the_callers_fields(tmp_path: Path) -> None:
    usage = busy_usage()
    write_usage(tmp_path / "usage.json", usage, {"method": "openai"})
    assert json.loads((tmp_path / "usage.json").read_text()) == {
        **usage.to_json(),
        "method": "openai",
    }
    write_usage(tmp_path / "plain.json", usage)
    assert json.loads((tmp_path / "plain.json").read_text()) == usage.to_json()


def test_records_beside_results() -> None:
    assert Sampling(0.7, 0.9, 5, ("\n",)).to_json() == {
        "temperature": 0.7, "top_p": 0.9, "max_tokens": 5, "stop": ["\n"],
    }  # fmt: skip
    endpoint = Endpoint(URL, "m", api_key_env="RB_KEY", extra_body={"x": 1}, key_prefix="j.")
    assert endpoint.to_json() == {
        "base_url": URL, "model": "m", "api": "chat", "api_key_env": "RB_KEY", "concurrency": 8,
        "timeout_s": 60.0, "max_tokens_key": "max_tokens", "extra_body": {"x": 1},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"base_url": "x/v1"}, "judge.args.base_url must start with http:// or https://, got 'x/v1'"),
        ({"base_url": None}, "judge.args.base_url must start with http:// or https://, got None"),
        ({"model": ""}, "judge.args.model must be the served model's name, got ''"),
        ({"model": None}, "judge.args.model must be the served model's name, got None"),
        ({"api": "responses"}, "judge.args.api must be one of ['chat', 'completions'], got 'responses'"),
    ],
)  # fmt: skip
def test_endpoint_messages_name_the_callers_key(fields: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"base_url": URL, "model": "m", **fields}
    with pytest.raises(ServeError) as refused:
        Endpoint(**settings, key_prefix="judge.args.")  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_headers_carry_the_key_only_when_one_is_configured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def sent(endpoint: Endpoint) -> dict[str, str]:  # header names are case-insensitive (HTTP)
        return {name.lower(): value for name, value in endpoint.headers().items()}

    assert sent(Endpoint(URL, "m")) == {"content-type": "application/json"}
    monkeypatch.setenv("RB_TEST_KEY", "sk-1")
    keyed = Endpoint(URL, "m", api_key_env="RB_TEST_KEY", key_prefix="judge.args.")
    assert sent(keyed) == {"content-type": "application/json", "authorization": "Bearer sk-1"}
    monkeypatch.delenv("RB_TEST_KEY")
    with pytest.raises(ServeError) as unset:
        keyed.headers()
    assert str(unset.value) == (
        "environment variable RB_TEST_KEY (judge.args.api_key_env) is not set"
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"max_attempts": 0}, "max_attempts and max_consecutive_failures must be >= 1"),
        ({"max_consecutive_failures": 0}, "max_attempts and max_consecutive_failures must be >= 1"),
        ({"backoff_s": -1.0}, "need 0 <= backoff_s <= max_backoff_s and max_wait_s >= 0"),
        ({"backoff_s": 2.0, "max_backoff_s": 1.0}, "need 0 <= backoff_s <= max_backoff_s and max_wait_s >= 0"),
        ({"max_wait_s": -1.0}, "need 0 <= backoff_s <= max_backoff_s and max_wait_s >= 0"),
    ],
)  # fmt: skip
def test_retry_policy_refusals(fields: dict[str, float], message: str) -> None:
    with pytest.raises(ServeError) as refused:
        RetryPolicy(**fields)  # type: ignore[arg-type]
    policy = {"max_attempts": 8, "backoff_s": 0.5, "max_backoff_s": 30.0, "max_wait_s": 120.0,
              "max_consecutive_failures": 20, **fields}  # fmt: skip
    shown = ", ".join(f"{k}={policy[k]!r}" for k in RetryPolicy.__dataclass_fields__)
    assert str(refused.value) == f"{message}: RetryPolicy({shown})"


def test_retry_policy_bounds_are_inclusive() -> None:
    RetryPolicy(max_attempts=1, max_consecutive_failures=1, backoff_s=0.0, max_wait_s=0.0)
    RetryPolicy(backoff_s=3.0, max_backoff_s=3.0)


@pytest.mark.parametrize(
    "fields",
    [{"temperature": -0.1}, {"top_p": 0.0}, {"top_p": 1.5}, {"max_tokens": 0}],
)
def test_sampling_refusals(fields: dict[str, float]) -> None:
    with pytest.raises(ServeError) as refused:
        Sampling(**fields)  # type: ignore[arg-type]
    sampling = {"temperature": 0.0, "top_p": 1.0, "max_tokens": 64, **fields}
    shown = ", ".join(f"{k}={v!r}" for k, v in sampling.items())
    assert str(refused.value) == (
        f"need temperature >= 0, 0 < top_p <= 1, max_tokens >= 1: Sampling({shown}, stop=())"
    )


def test_sampling_bounds_are_inclusive() -> None:
    assert Sampling(temperature=0.0, top_p=1.0, max_tokens=1).greedy
    assert not Sampling(temperature=2.0, top_p=1e-9).greedy


def test_a_serve_errors_reason_is_its_message_unless_given() -> None:
    assert ServeError("stopped").reason == "stopped"
    assert ServeError("stopped; kept in c", "stopped").reason == "stopped"


class Draw(random.Random):
    """A generator whose every draw is ``value`` (the jitter's two ends and its middle)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def test_backoff_is_equal_jitter_over_the_whole_upper_half() -> None:
    policy = RetryPolicy(backoff_s=1.0, max_backoff_s=8.0)
    assert [backoff(2, policy, Draw(d)) for d in (0.0, 0.5, 1.0)] == [2.0, 3.0, 4.0]
    assert [backoff(9, policy, Draw(d)) for d in (0.0, 1.0)] == [4.0, 8.0]  # capped


def test_backoff_exponent_stops_at_60_so_no_attempt_overflows() -> None:
    unbounded = RetryPolicy(backoff_s=1.0, max_backoff_s=math.inf)
    assert backoff(60, unbounded, Draw(1.0)) == 2.0**60
    assert backoff(61, unbounded, Draw(1.0)) == backoff(10**6, unbounded, Draw(1.0)) == 2.0**60


def test_retry_after_date_is_read_against_the_given_clock_or_now() -> None:
    then = 1_000_000_000.0  # 2001: far from the real clock, so the given one must be used
    assert retry_after(formatdate(then + 30, usegmt=True), now=then) == 30.0
    assert retry_after(formatdate(then + 30, usegmt=True)) == 0.0  # long past by the real clock
    ahead = retry_after(formatdate(time.time() + 3600, usegmt=True))
    assert ahead is not None and 3000 < ahead <= 3600


def test_the_key_is_redacted_whole_in_every_form(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ('sk-"quoted"\\path-0123456789', "\\sk-starts-escaped"):
        monkeypatch.setenv("RB_TEST_KEY", key)
        endpoint = Endpoint(URL, "m", api_key_env="RB_TEST_KEY")
        body = json.dumps({"error": {"message": f"invalid key {key}", key: [key, 1]}})
        # the JSON text holds only the escaped form, which contains (part of) the plain one
        assert excerpt(body.encode(), endpoint) == (
            '{"error": {"message": "invalid key ***", "***": ["***", 1]}}'
        )
        assert excerpt(f"plain {key}!".encode(), endpoint) == "plain ***!"


def chat(message: object, **choice: object) -> dict[str, object]:
    return {"choices": [{"message": message, **choice}]}


@pytest.mark.parametrize(
    ("data", "api", "message"),
    [
        ([], "chat", "the response is not a JSON object"),
        ("text", "completions", "the response is not a JSON object"),
        ({}, "chat", "the response has no choices"),
        ({"choices": {}}, "chat", "the response has no choices"),
        ({"choices": []}, "completions", "the response has no choices"),
        ({"choices": ["text"]}, "completions", "the response has no choices"),
        ({"choices": [{}]}, "chat", "the chat response has no message"),
        (chat("content"), "chat", "the chat response has no message"),
        (chat({"content": ["a"]}), "chat", "the response content is not text"),
        ({"choices": [{"text": 3}]}, "completions", "the response content is not text"),
    ],
)
def test_each_malformed_reply_says_what_is_wrong(data: object, api: str, message: str) -> None:
    with pytest.raises(BadResponse) as bad:
        read_reply("k", data, api)
    assert str(bad.value) == message


def test_finish_reason_is_kept_when_it_is_text() -> None:
    assert read_reply(
        "k", chat({"content": "a"}, finish_reason="length"), "chat"
    ).finish_reason == ("length")
    assert read_reply("k", chat({"content": "a"}, finish_reason=3), "chat").finish_reason is None
    assert read_reply("k", chat({"content": "a"}), "chat").finish_reason is None


def test_the_reasoning_field_under_either_name_and_only_as_text() -> None:
    named = read_reply("k", chat({"content": "a", "reasoning": "thought"}), "chat")
    assert (named.text, named.reasoning) == ("a", "thought")
    content = read_reply("k", chat({"content": "b", "reasoning_content": "first"}), "chat")
    assert content.reasoning == "first"
    for junk in (5, ["x"], {"t": "x"}):  # not text: the think block (if any) is the reasoning
        think = read_reply("k", chat({"content": "<think>t</think>a", "reasoning": junk}), "chat")
        assert (think.text, think.reasoning) == ("a", "t")
        plain = read_reply("k", chat({"content": "a", "reasoning_content": junk}), "chat")
        assert plain.reasoning is None
    completion = {"choices": [{"text": "a", "reasoning": "r"}]}
    assert read_reply("k", completion, "completions").reasoning == "r"


def test_token_counts_are_whole_numbers_or_none() -> None:
    counts = {"prompt_tokens": "11", "completion_tokens": True, "reasoning_tokens": 2.0}
    odd = read_reply("k", {**chat({"content": "a"}), "usage": counts}, "chat")
    assert (odd.prompt_tokens, odd.completion_tokens, odd.reasoning_tokens) == (None, None, None)
    for usage in ([], "x"):  # not an object: no usage reported
        assert (
            read_reply("k", {**chat({"content": "a"}), "usage": usage}, "chat").prompt_tokens
            is None
        )


def test_reasoning_tokens_reported_at_the_top_level_of_usage() -> None:
    data = {
        **chat({"content": "x", "reasoning_content": "abc"}),
        "usage": {"prompt_tokens": 1, "completion_tokens": 9, "reasoning_tokens": 4},
    }
    top = read_reply("k", data, "chat")
    assert (top.reasoning_tokens, top.reasoning_tokens_estimated) == (4, False)
    details = {**data["usage"], "completion_tokens_details": {"reasoning_tokens": 6}}  # type: ignore[dict-item]
    first = read_reply("k", {**data, "usage": details}, "chat")
    assert (first.reasoning_tokens, first.reasoning_tokens_estimated) == (6, False)
    unknown = read_reply("k", {**data, "usage": {"completion_tokens": 8}}, "chat")
    assert (unknown.reasoning_tokens, unknown.reasoning_tokens_estimated) == (6, True)  # 8 * 3/4


def test_request_keys_are_those_of_existing_caches() -> None:
    # the cache on disk is keyed by these: another key for the same request would make every
    # cache written so far miss, and its answers be asked and paid for again
    chat, completions = Endpoint(URL, "m"), Endpoint(URL, "m", api="completions")
    assert request_key(chat, request_body(chat, "p", Sampling(max_tokens=4), 0)) == (
        "796ca0c5141df686df92138242c8bdc4e84ef6fbb5418aaf1473de065d06ab8f"
    )
    assert request_key(completions, request_body(completions, "p", Sampling(max_tokens=4), 0)) == (
        "f80c237df989e1b0f01cfd974840a469fd3ff02acf0dab60ab5fc7bc89d44067"
    )


def test_chat_messages_are_no_completions_prompt() -> None:
    completions = Endpoint(URL, "m", api="completions")
    with pytest.raises(TypeError) as refused:
        request_body(completions, [{"role": "user", "content": "q"}], Sampling(), 0)
    assert str(refused.value) == "the completions API takes a prompt string, not chat messages"
