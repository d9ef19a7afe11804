"""The client's request loop against a canned OpenAI-compatible server (no model: answers are a
function of the request), with the fault proxy in front: order, de-duplication, the cache, the
headers and bodies sent, concurrency, every retry and stop rule with its exact message, and the
usage it counts. Fast enough for every mutant of ``reasonbench/serve`` (docs/testing.md); the
same client against the real tiny model is ``test_client.py``."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from reasonbench.serve import Client, Endpoint, Prices, Reply, RetryPolicy, Sampling, ServeError
from tests.serve.servers import CannedServer, FaultProxy, free_port

SHORT = Sampling(max_tokens=4)
# retries without waiting: the backoff is exercised by test_wire.py
QUICK = RetryPolicy(backoff_s=0.0, max_backoff_s=0.0, max_consecutive_failures=50)


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def faulty(canned: CannedServer) -> Iterator[FaultProxy]:
    proxy = FaultProxy(canned.base_url)
    try:
        yield proxy
    finally:
        proxy.close()


def client(url: str, cache: Path | None = None, retry: RetryPolicy = QUICK, **kw: object) -> Client:
    return Client(Endpoint(url, "canned", **kw), cache, retry)  # type: ignore[arg-type]


def test_replies_in_order_each_distinct_request_sent_once(canned: CannedServer) -> None:
    asked = client(canned.base_url, api="completions", concurrency=2)
    replies = asked.ask(["b", "a", "b", "c"], SHORT, seed=5)
    assert [r.text for r in replies] == ["b #5", "a #5", "b #5", "c #5"]
    assert sorted(body["prompt"] for _, body, _ in canned.requests) == ["a", "b", "c"]
    assert {body["seed"] for _, body, _ in canned.requests} == {5}
    assert {path for path, _, _ in canned.requests} == {"v1/completions"}
    assert not any(r.cached for r in replies) and replies[0] == replies[2]
    usage = asked.usage
    assert (usage.requests, usage.fetched, usage.cached, usage.retries) == (3, 3, 0, 0)
    assert usage.tokens["prompt_tokens"] == 3 and usage.tokens["completion_tokens"] == 6
    assert usage.seconds > 0


def test_chat_requests_carry_the_messages_and_the_key(
    canned: CannedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RB_CANNED_KEY", "sk-canned")
    asked = client(canned.base_url, api_key_env="RB_CANNED_KEY")
    chat = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "q"}]
    assert [r.text for r in asked.ask(["p", chat], SHORT)] == ["p #0", "q #0"]
    assert {path for path, _, _ in canned.requests} == {"v1/chat/completions"}
    bodies = sorted((body for _, body, _ in canned.requests), key=lambda b: len(b["messages"]))
    assert bodies[0]["messages"] == [{"role": "user", "content": "p"}]
    assert bodies[1]["messages"] == chat
    assert {h["Authorization"] for _, _, h in canned.requests} == {"Bearer sk-canned"}
    assert {h["Content-Type"] for _, _, h in canned.requests} == {"application/json"}


def test_a_rerun_reads_the_cache_and_reports_every_reply(
    canned: CannedServer, tmp_path: Path
) -> None:
    seen: list[Reply] = []
    first = Client(Endpoint(canned.base_url, "canned"), tmp_path, on_reply=seen.append)
    fetched = first.ask(["x", "y"], SHORT)
    assert sorted(r.text for r in seen) == ["x #0", "y #0"] and not any(r.cached for r in seen)
    lines = (tmp_path / "rank-0.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["key"] for line in lines) == sorted(r.key for r in fetched)
    spent = first.usage.seconds
    first.ask(["z"], SHORT)  # the same client's time adds up over its runs
    assert first.usage.seconds > spent

    seen.clear()
    again = Client(Endpoint(canned.base_url, "canned"), tmp_path, on_reply=seen.append)
    replies = again.ask(["y", "z", "w"], SHORT)
    assert [r.text for r in replies] == ["y #0", "z #0", "w #0"]
    assert [r.cached for r in replies] == [True, True, False]
    assert [r.text for r in seen] == ["y #0", "z #0", "w #0"]  # cached ones first, in order
    assert (again.usage.cached, again.usage.fetched, again.usage.requests) == (2, 1, 1)
    assert again.usage.tokens_cached["completion_tokens"] == 4
    assert len(canned.requests) == 4  # x, y, z, then only w

    cached_only = Client(Endpoint(canned.base_url, "canned"), tmp_path)
    cached_only.ask(["w"], SHORT)
    assert cached_only.usage.seconds == 0.0 and len(canned.requests) == 4


def test_requests_run_concurrently_up_to_the_setting(canned: CannedServer) -> None:
    canned.hold = 3  # the requests are answered three at a time, once all three arrived
    replies = client(canned.base_url, concurrency=3).ask([str(i) for i in range(6)], SHORT)
    assert [r.text for r in replies] == [f"{i} #0" for i in range(6)]
    assert canned.most_in_flight == 3


def test_a_refusal_stops_at_once_with_one_line(faulty: FaultProxy, tmp_path: Path) -> None:
    asked = client(faulty.base_url, tmp_path, concurrency=1)
    faulty.body400 = b"bad \xff request\n  see   docs"  # not UTF-8, on several lines
    faulty.queue(["pass", "400"])
    with pytest.raises(ServeError) as refused:
        asked.ask(["a", "b", "c"], SHORT)
    reason = (
        f"HTTP 400 from {faulty.base_url}/chat/completions (not retryable; check base_url, "
        "model, api and api_key_env): bad \ufffd request see docs"
    )
    assert refused.value.reason == reason
    kept = f"; stopped, 1 answers of this run kept in {tmp_path} (rerun resumes)"
    assert str(refused.value) == reason + kept
    assert asked.usage.requests == 2 and asked.usage.retries == 0
    assert sum(asked.usage.failures.values()) == 0  # a refusal is not a failed attempt


def test_the_other_workers_stop_when_one_request_is_refused(
    canned: CannedServer, faulty: FaultProxy
) -> None:
    faulty.queue(["401"])
    asked = client(faulty.base_url, concurrency=2)
    with pytest.raises(ServeError, match="HTTP 401") as refused:
        asked.ask([str(i) for i in range(40)], SHORT)
    assert str(refused.value).endswith(
        "; stopped (no cache_dir: the answers of this run are not kept)"
    )
    assert len(faulty.seen) < 40


@pytest.mark.parametrize(
    ("faults", "failures"),
    [
        (["500", "503", "429-now"], {"http_5xx": 2, "http_429": 1}),
        (["truncate", "hangup"], {"bad_response": 2}),
    ],
)
def test_retryable_failures_are_retried_and_counted(
    faulty: FaultProxy, faults: list[str], failures: dict[str, int]
) -> None:
    faulty.queue(faults)
    asked = client(faulty.base_url, api="completions", concurrency=1)
    assert [r.text for r in asked.ask(["a", "b"], SHORT)] == ["a #0", "b #0"]
    assert dict(asked.usage.failures) == failures
    assert asked.usage.retries == len(faults) and asked.usage.requests == len(faults) + 2
    assert asked.usage.fetched == 2


def test_consecutive_failures_count_across_requests_and_reset_on_an_answer(
    faulty: FaultProxy,
) -> None:
    policy = RetryPolicy(backoff_s=0.0, max_backoff_s=0.0, max_consecutive_failures=3)
    faulty.queue(["500", "500", "pass", "500", "500", "pass"])
    asked = client(faulty.base_url, api="completions", concurrency=1, retry=policy)
    assert [r.text for r in asked.ask(["a", "b"], SHORT)] == ["a #0", "b #0"]
    faulty.queue(["500"] * 3)
    with pytest.raises(ServeError) as stopped:
        asked.ask(["c"], SHORT)
    last = "HTTP 500: upstream error"
    assert stopped.value.reason == (
        f"3 consecutive failed requests to {faulty.base_url}/completions, last: {last}"
    )
    assert asked.usage.failures["http_5xx"] == 7 and asked.usage.retries == 6


def test_a_request_failing_max_attempts_times_stops(faulty: FaultProxy) -> None:
    policy = RetryPolicy(max_attempts=2, backoff_s=0.0, max_backoff_s=0.0)
    faulty.queue(["503", "503"])
    asked = client(faulty.base_url, api="completions", concurrency=1, retry=policy)
    with pytest.raises(ServeError) as stopped:
        asked.ask(["a"], SHORT)
    assert stopped.value.reason == (
        f"a request to {faulty.base_url}/completions failed 2 times, last: HTTP 503: upstream error"
    )
    assert (asked.usage.requests, asked.usage.retries) == (2, 1)


def test_retry_after_is_honoured_up_to_max_wait(faulty: FaultProxy) -> None:
    # a Retry-After of 0 is waited as 0 s, not as this backoff (an hour: the run would hang)
    patient = RetryPolicy(backoff_s=3600.0, max_backoff_s=3600.0, max_wait_s=0.0)
    faulty.queue(["429-now"])
    asked = client(faulty.base_url, api="completions", concurrency=1, retry=patient)
    assert asked.ask(["a"], SHORT)[0].text == "a #0"
    assert asked.usage.failures["http_429"] == 1
    faulty.queue(["429"])  # Retry-After: 1, more than max_wait_s 0
    with pytest.raises(ServeError) as stopped:
        asked.ask(["b"], SHORT)
    assert stopped.value.reason == (
        f"{faulty.base_url}/completions asks to retry after 1 s (more than max_wait_s 0)"
    )


def test_a_slow_answer_times_out(faulty: FaultProxy) -> None:
    faulty.slow_s = 1.0
    faulty.queue(["slow"])
    policy = RetryPolicy(max_attempts=1)
    asked = client(faulty.base_url, api="completions", timeout_s=0.25, retry=policy)
    with pytest.raises(ServeError) as stopped:
        asked.ask(["a"], SHORT)
    assert stopped.value.reason.endswith("failed 1 times, last: no answer within 0.25 s")
    assert asked.usage.failures["timeout"] == 1


@pytest.mark.parametrize(
    ("fault", "last"),
    [
        ("hangup", r"truncated body \((\w+)\)"),  # closed mid-body: aiohttp's name for it
        ("truncate", r"unreadable response \((Expecting .*)\)"),  # framed whole, JSON cut
    ],
)
def test_a_cut_answer_is_a_bad_response(faulty: FaultProxy, fault: str, last: str) -> None:
    faulty.queue([fault])
    asked = client(faulty.base_url, api="completions", retry=RetryPolicy(max_attempts=1))
    with pytest.raises(ServeError) as stopped:
        asked.ask(["a"], SHORT)
    said = re.fullmatch(f".*failed 1 times, last: {last}", stopped.value.reason)
    assert said is not None
    if fault == "hangup":
        assert issubclass(getattr(aiohttp, said.group(1)), aiohttp.ClientPayloadError)
    assert asked.usage.failures == {"bad_response": 1}


def test_an_unreachable_server_is_a_connection_failure() -> None:
    policy = RetryPolicy(max_attempts=1)
    asked = client(f"http://127.0.0.1:{free_port()}/v1", api="completions", retry=policy)
    with pytest.raises(ServeError, match=r"failed 1 times, last: Client\w*Error: ") as stopped:
        asked.ask(["a"], SHORT)
    assert "\n" not in str(stopped.value)
    assert asked.usage.failures["connection"] == 1


def test_an_answer_that_is_not_the_api_json_is_a_bad_response(canned: CannedServer) -> None:
    canned.reply = lambda prompt, seed: 7  # type: ignore[assignment,return-value]
    policy = RetryPolicy(max_attempts=1)
    with pytest.raises(ServeError) as stopped:
        client(canned.base_url, retry=policy).ask(["a"], SHORT)
    assert stopped.value.reason.endswith(
        "failed 1 times, last: unreadable response (the response content is not text)"
    )


@pytest.mark.parametrize(
    ("api", "fault", "body", "answered_before", "hinted"),
    [
        ("chat", "500", "", False, True),  # transformers serve without a chat template
        ("chat", "400", "model has no chat template", False, True),  # vLLM names it
        ("chat", "422", "Chat Template missing", False, True),
        ("chat", "400", "bad request", False, False),
        ("chat", "500 then hangup", "", False, True),  # the last failure is not the 5xx
        ("chat", "hangup", "", False, False),
        ("chat", "500", "", True, False),  # a chat answer came back: a template exists
        ("completions", "500", "", False, False),
    ],
)
def test_the_chat_template_hint(
    faulty: FaultProxy, api: str, fault: str, body: str, answered_before: bool, hinted: bool
) -> None:
    policy = RetryPolicy(backoff_s=0.0, max_backoff_s=0.0, max_consecutive_failures=2)
    asked = client(faulty.base_url, api=api, concurrency=1, retry=policy)
    if answered_before:
        asked.ask(["first"], SHORT)
    faulty.body400 = body
    faulty.queue(fault.split(" then ") if " then " in fault else [fault] * 2)
    with pytest.raises(ServeError) as stopped:
        asked.ask(["a"], SHORT)
    hint = "; no chat answer came back: if the model has no chat template, set api=completions"
    assert stopped.value.reason.endswith(hint) == hinted
    assert str(stopped.value).count(hint) == hinted


def test_the_hint_names_the_callers_key(faulty: FaultProxy) -> None:
    policy = RetryPolicy(max_attempts=1)
    endpoint = Endpoint(faulty.base_url, "canned", key_prefix="judge.args.")
    faulty.queue(["500"])
    with pytest.raises(
        ServeError, match=r"set judge\.args\.api=completions; stopped \(no cache_dir"
    ):
        Client(endpoint, None, policy).ask(["a"], SHORT)


def test_usage_accounts_prices_and_reasoning(canned: CannedServer, tmp_path: Path) -> None:
    canned.reply = lambda prompt, seed: f"<think>{prompt}{prompt}</think>ok"
    prices = Prices(input_per_1m=1e6, output_per_1m=2e6, currency="EUR")
    asked = Client(Endpoint(canned.base_url, "canned"), tmp_path, prices=prices)
    reply = asked.ask(["abc"], SHORT)[0]
    assert (reply.text, reply.reasoning, reply.reasoning_tokens) == ("ok", "abcabc", 2)
    assert asked.usage.cost(asked.usage.tokens) == 3 * 1 + 2 * 2
    again = Client(Endpoint(canned.base_url, "canned"), tmp_path, prices=prices)
    again.ask(["abc", "de"], SHORT)
    data = again.usage.to_json()
    assert data["cost"] == 2 * 1 + 2 * 2 and data["cost_all"] == 7 + 6
    assert data["tokens_cached"]["reasoning_tokens"] == 2
    assert again.usage.summary().startswith("1 fetched, 1 cached; 2 prompt + 2 completion")


def test_a_stopped_run_leaves_no_request_running(faulty: FaultProxy) -> None:
    faulty.queue(["401"])
    asked = client(faulty.base_url, concurrency=2)

    async def stop() -> set[asyncio.Task[object]]:
        with pytest.raises(ServeError, match="HTTP 401"):
            await asked.ask_async([str(i) for i in range(40)], SHORT)
        return asyncio.all_tasks() - {asyncio.current_task()}  # type: ignore[operator]

    assert asyncio.run(stop()) == set()  # the other worker was waited for, not left behind


def test_ask_async_asks_with_seed_0_by_default(canned: CannedServer) -> None:
    replies = asyncio.run(client(canned.base_url).ask_async(["a"], SHORT))
    assert replies[0].text == "a #0"


def test_a_repeated_cached_input_is_read_reported_and_counted_once(
    canned: CannedServer, tmp_path: Path
) -> None:
    Client(Endpoint(canned.base_url, "canned"), tmp_path).ask(["x"], SHORT)
    seen: list[Reply] = []
    again = Client(Endpoint(canned.base_url, "canned"), tmp_path, on_reply=seen.append)
    assert [r.text for r in again.ask(["x", "x", "x"], SHORT)] == ["x #0"] * 3
    assert len(seen) == 1 and again.usage.cached == 1
    assert again.usage.to_json()["tokens_cached"]["completion_tokens"] == 2


def test_seconds_is_the_time_spent_answering(canned: CannedServer) -> None:
    asked = client(canned.base_url)
    before = time.perf_counter()
    asked.ask(["a", "b"], SHORT)
    assert 0 < asked.usage.seconds <= time.perf_counter() - before


@pytest.mark.parametrize(
    ("faults", "also"),
    [
        (["500", "hangup"], "; last HTTP error: HTTP 500: upstream error"),
        (["hangup", "hangup"], ""),  # no HTTP error in the run: none to name
        (["hangup", "500"], ""),  # the last failure is the HTTP error
    ],
)
def test_a_stop_names_the_last_http_error_when_another_failure_came_last(
    faulty: FaultProxy, faults: list[str], also: str
) -> None:
    policy = RetryPolicy(backoff_s=0.0, max_backoff_s=0.0, max_consecutive_failures=2)
    faulty.queue(faults)
    asked = client(faulty.base_url, api="completions", concurrency=1, retry=policy)
    with pytest.raises(ServeError) as stopped:
        asked.ask(["a"], SHORT)
    last = {"500": "HTTP 500: upstream error", "hangup": "truncated body (ClientPayloadError)"}
    assert stopped.value.reason == (
        f"2 consecutive failed requests to {faulty.base_url}/completions, "
        f"last: {last[faults[-1]]}{also}"
    )
