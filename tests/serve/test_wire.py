"""The client's pure parts: reasoning split, Retry-After, backoff, request keys, reply reading,
usage and cost — properties with hypothesis, plus the documented edge cases."""

from __future__ import annotations

import json
import random
import time
from email.utils import formatdate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reasonbench.serve import Endpoint, Prices, RetryPolicy, Sampling, ServeError, Usage
from reasonbench.serve.client import EXCERPT, excerpt
from reasonbench.serve.config import redact, redact_json
from reasonbench.serve.retry import backoff, failure_kind, retry_after
from reasonbench.serve.wire import (
    BadResponse,
    Reply,
    read_reply,
    request_body,
    request_key,
    split_reasoning,
)

TAGLESS = st.text().filter(lambda t: "<think>" not in t and "</think>" not in t)
CHAT = Endpoint("http://127.0.0.1:1/v1", "m")
COMPLETIONS = Endpoint("http://127.0.0.1:1/v1", "m", api="completions")


@given(TAGLESS)
def test_content_without_think_is_unchanged(text: str) -> None:
    assert split_reasoning(text) == (text, None)


@given(TAGLESS, TAGLESS, st.booleans())
def test_think_block_is_split_off(thought: str, answer: str, opened: bool) -> None:
    content = ("<think>" if opened else "") + thought + "</think>\n" + answer.lstrip()
    assert split_reasoning(content) == (answer.lstrip(), thought.strip())


def test_unclosed_think_leaves_no_answer() -> None:
    assert split_reasoning("  <think>still going") == ("", "still going")


@given(st.integers(0, 10**6))
def test_retry_after_seconds(seconds: int) -> None:
    assert retry_after(str(seconds)) == seconds


def test_retry_after_http_date_and_garbage() -> None:
    now = time.time()
    assert retry_after(formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30, abs=1)
    assert retry_after(formatdate(now - 30, usegmt=True), now=now) == 0.0  # past: retry now
    for bad in (None, "", "soon", "nan", "inf", "Mon, 99 Foo 2026"):
        assert retry_after(bad) is None


@given(st.integers(0, 100), st.floats(0.001, 5), st.floats(5, 60), st.integers(0, 2**32))
def test_backoff_is_jittered_within_its_exponential_cap(
    attempt: int, base: float, most: float, seed: int
) -> None:
    policy = RetryPolicy(backoff_s=base, max_backoff_s=most)
    cap = min(most, base * 2.0 ** min(attempt, 60))
    assert cap / 2 <= backoff(attempt, policy, random.Random(seed)) <= cap


def test_retryable_statuses() -> None:
    assert failure_kind(429) == "http_429"
    assert {failure_kind(s) for s in (500, 502, 503, 504)} == {"http_5xx"}
    assert failure_kind(408) == "http_408"
    assert all(failure_kind(s) is None for s in (400, 401, 403, 404, 422))


@given(st.text(), st.integers(0, 2**31), st.floats(0, 2), st.integers(1, 512))
def test_request_key_is_the_body(prompt: str, seed: int, temperature: float, tokens: int) -> None:
    sampling = Sampling(temperature=temperature, max_tokens=tokens)
    body = request_body(CHAT, prompt, sampling, seed)
    assert request_key(CHAT, body) == request_key(CHAT, json.loads(json.dumps(body)))
    assert body["messages"] == [{"role": "user", "content": prompt}]
    assert request_key(CHAT, request_body(CHAT, prompt, sampling, seed + 1)) != request_key(
        CHAT, body
    )  # the seed decides: a rerun is asked again, never read back
    other = request_body(COMPLETIONS, prompt, sampling, seed)
    assert "prompt" in other and request_key(COMPLETIONS, other) != request_key(CHAT, body)


def test_request_body_fields() -> None:
    greedy = request_body(COMPLETIONS, "p", Sampling(max_tokens=7, stop=("\n\n",)), 3)
    assert greedy == {
        "model": "m", "prompt": "p", "max_tokens": 7, "temperature": 0.0, "stop": ["\n\n"],
        "seed": 3,
    }  # fmt: skip
    o1 = Endpoint(
        "https://api/v1", "o1", max_tokens_key="max_completion_tokens", extra_body={"x": 1}
    )
    sampled = request_body(o1, [{"role": "user", "content": "q"}], Sampling(0.7, 0.9, 5), 0)
    assert sampled["max_completion_tokens"] == 5 and sampled["top_p"] == 0.9 and sampled["x"] == 1
    with pytest.raises(TypeError, match="prompt string"):
        request_body(COMPLETIONS, [{"role": "user", "content": "q"}], Sampling(), 0)


def chat_response(content: object, **message: object) -> dict[str, object]:
    usage = {"prompt_tokens": 11, "completion_tokens": 40}
    return {
        "choices": [{"message": {"content": content, **message}, "finish_reason": "stop"}],
        "usage": usage,
    }


def test_read_reply_reasoning_and_tokens() -> None:
    plain = read_reply("k", chat_response("verdict: approve"), "chat")
    assert (plain.text, plain.reasoning, plain.reasoning_tokens) == ("verdict: approve", None, None)
    thought = read_reply("k", chat_response("<think>abc</think>verdict: deny"), "chat")
    assert thought.text == "verdict: deny" and thought.raw.startswith("<think>")
    assert thought.reasoning == "abc" and thought.reasoning_tokens_estimated
    assert thought.reasoning_tokens == round(40 * 3 / (3 + len("verdict: deny")))
    field = chat_response("verdict: deny", reasoning_content="long thought")
    field["usage"] = {
        "prompt_tokens": 1, "completion_tokens": 9,
        "completion_tokens_details": {"reasoning_tokens": 7},
    }  # fmt: skip
    api = read_reply("k", field, "chat")
    assert (api.reasoning, api.reasoning_tokens, api.reasoning_tokens_estimated) == (
        "long thought", 7, False
    )  # fmt: skip
    empty = read_reply("k", chat_response(None), "chat")  # budget spent reasoning: no answer
    assert empty.text == "" and empty.raw == ""
    legacy = read_reply("k", {"choices": [{"text": " old: deny"}]}, "completions")
    assert legacy.text == " old: deny" and legacy.prompt_tokens is None


@pytest.mark.parametrize(
    "data",
    [[], {}, {"choices": []}, {"choices": [{}]}, {"choices": [{"message": {"content": 3}}]}],
)
def test_read_reply_rejects_malformed(data: object) -> None:
    with pytest.raises(BadResponse):
        read_reply("k", data, "chat")


def test_reply_round_trips_through_its_cache_entry() -> None:
    reply = read_reply("k", chat_response("<think>x</think>new: deny"), "chat")
    back = Reply.from_entry(json.loads(json.dumps(reply.to_entry())))
    assert back.cached and back == Reply(**{**reply.__dict__, "cached": True})


def test_usage_and_cost() -> None:
    usage = Usage(Prices(input_per_1m=2.0, output_per_1m=10.0))
    fresh = read_reply("a", chat_response("x"), "chat")
    usage.add(fresh)
    usage.add(Reply.from_entry(fresh.to_entry()))
    data = usage.to_json()
    assert (data["answers_fetched"], data["answers_cached"]) == (1, 1)
    assert data["cost"] == pytest.approx((11 * 2 + 40 * 10) / 1e6)
    assert data["cost_all"] == pytest.approx(2 * data["cost"])
    assert "1 fetched, 1 cached" in usage.summary()


def test_config_errors_name_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ServeError, match="api must be"):
        Endpoint("http://x/v1", "m", api="responses")
    with pytest.raises(ServeError, match="base_url"):
        Endpoint("x/v1", "m")
    monkeypatch.delenv("RB_NO_SUCH_KEY", raising=False)
    with pytest.raises(ServeError, match="RB_NO_SUCH_KEY"):
        Endpoint("http://x/v1", "m", api_key_env="RB_NO_SUCH_KEY").headers()
    with pytest.raises(ServeError):
        Sampling(temperature=-1)
    with pytest.raises(ServeError):
        RetryPolicy(max_attempts=0)


KEY_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-_"


@given(
    st.text(KEY_CHARS, min_size=8, max_size=64),
    st.text("abc xyz.:{}\n", max_size=400),
    st.text("abc xyz.:{}\n", max_size=400),
)
def test_no_part_of_the_key_is_ever_in_an_excerpt(key: str, before: str, after: str) -> None:
    # the key may straddle the excerpt's cut anywhere: not one of its characters may show
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RB_TEST_KEY", key)
        endpoint = Endpoint("http://127.0.0.1:1/v1", "m", api_key_env="RB_TEST_KEY")
        shown = excerpt((before + key + after).encode(), endpoint)
    assert not set(shown) & set(KEY_CHARS)
    assert len(shown) <= EXCERPT


def test_the_key_is_redacted_as_sent_and_escaped_in_json(monkeypatch: pytest.MonkeyPatch) -> None:
    key = 'sk-"quoted"\\path-0123456789'
    monkeypatch.setenv("RB_TEST_KEY", key)
    endpoint = Endpoint("http://127.0.0.1:1/v1", "m", api_key_env="RB_TEST_KEY")
    body = json.dumps({"error": {"message": f"invalid key {key}", key: [key, 1]}})
    assert key not in body and "quoted" in body  # the JSON text holds the escaped form only
    assert "quoted" not in excerpt(body.encode(), endpoint)
    decoded = redact_json(json.loads(body), endpoint)
    assert decoded == {"error": {"message": "invalid key ***", "***": ["***", 1]}}
    monkeypatch.delenv("RB_TEST_KEY")  # no key set: nothing to redact
    assert redact(f"a {key}", endpoint) == f"a {key}"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("concurrency", "abc", "judge.args.concurrency must be an integer >= 1, got 'abc'"),
        ("concurrency", 1.5, "judge.args.concurrency must be an integer >= 1, got 1.5"),
        ("concurrency", True, "judge.args.concurrency must be an integer >= 1, got True"),
        ("concurrency", 0, "judge.args.concurrency must be an integer >= 1, got 0"),
        ("timeout_s", "abc", "judge.args.timeout_s must be a finite number of seconds > 0, got 'abc'"),
        ("timeout_s", None, "judge.args.timeout_s must be a finite number of seconds > 0, got None"),
        ("timeout_s", float("nan"), "judge.args.timeout_s must be a finite number of seconds > 0, got nan"),
        ("timeout_s", float("inf"), "judge.args.timeout_s must be a finite number of seconds > 0, got inf"),
        ("timeout_s", 0, "judge.args.timeout_s must be a finite number of seconds > 0, got 0"),
        ("timeout_s", -1.0, "judge.args.timeout_s must be a finite number of seconds > 0, got -1.0"),
        ("timeout_s", False, "judge.args.timeout_s must be a finite number of seconds > 0, got False"),
    ],
)  # fmt: skip
def test_endpoint_refuses_what_is_no_setting(field: str, value: object, message: str) -> None:
    with pytest.raises(ServeError) as refused:
        Endpoint("http://x/v1", "m", **{field: value}, key_prefix="judge.args.")  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_endpoint_settings_and_record() -> None:
    endpoint = Endpoint("http://x/v1", "m", concurrency=3, timeout_s=1, key_prefix="judge.args.")
    assert endpoint.timeout_s == 1 and endpoint == Endpoint("http://x/v1", "m", concurrency=3,
                                                            timeout_s=1)  # fmt: skip
    assert "key_prefix" not in endpoint.to_json()  # it words messages; it is not recorded
