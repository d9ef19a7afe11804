"""The async request loop: bounded concurrency, timeouts, retries, a cache line per answer.

:meth:`Client.ask` answers a list of inputs (prompts, or chat messages) with one decoding and
seed, in order. Inputs whose request is in the cache are not sent; the misses go out through
``endpoint.concurrency`` workers sharing one keep-alive connection pool (aiohttp: its client
costs well under a millisecond per request, see scripts/bench_evaluate.py). Every answer is
appended to the cache (one flushed JSONL line) the moment it arrives, so a run killed at any
point resumes with what it had, and a rerun sends no request at all.

Failures are retried per :mod:`reasonbench.serve.retry`. The run stops with one
:class:`ServeError` line when a request is refused for good (4xx), when a request failed
``max_attempts`` times, or after ``max_consecutive_failures`` failed attempts in a row across
all requests; the answers already cached stay.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from reasonbench.cache import GenerationCache
from reasonbench.serve.config import (
    Endpoint,
    Prices,
    RetryPolicy,
    Sampling,
    ServeError,
    redact,
    redact_json,
)
from reasonbench.serve.retry import backoff, failure_kind, retry_after
from reasonbench.serve.usage import Usage
from reasonbench.serve.wire import BadResponse, Input, Reply, read_reply, request_body, request_key

__all__ = ["Client"]

EXCERPT = 160  # characters of a refusing server's body quoted in the error


def excerpt(body: bytes, endpoint: Endpoint) -> str:
    """The start of a server's error body, on one line, for a message: the whole body is
    redacted *before* it is cut, since a key across the cut would no longer match and its first
    part would be shown."""
    return " ".join(redact(body.decode("utf-8", "replace"), endpoint).split())[:EXCERPT]


@dataclass(frozen=True)
class _Failure:
    """One failed attempt: ``kind`` names a retryable failure (``None``: a refusal); ``what``
    describes it (with an excerpt of the server's body, redacted)."""

    kind: str | None
    what: str
    status: int | None = None
    body: str = ""  # the start of an HTTP error's body, redacted
    retry_after: str | None = None

    @property
    def wait(self) -> float | None:
        """The seconds the server asked to wait (``Retry-After``), if it did."""
        return retry_after(self.retry_after)


class _Run:
    """State shared by the workers of one ``ask``."""

    def __init__(self, todo: dict[str, bytes]) -> None:
        self.items: Iterator[tuple[str, bytes]] = iter(todo.items())
        self.consecutive = 0
        # the last HTTP error of the run: a server that answers 500 and then drops connections
        # (transformers serve on a model without a chat template) must not hide its status
        self.last_http: str | None = None


class Client:
    """An OpenAI-compatible endpoint with a cache (``cache_dir``; ``None``: no cache)."""

    def __init__(
        self,
        endpoint: Endpoint,
        cache_dir: Path | None = None,
        retry: RetryPolicy | None = None,
        prices: Prices | None = None,
        on_reply: Callable[[Reply], None] | None = None,
    ) -> None:
        self.endpoint, self.retry = endpoint, retry or RetryPolicy()
        self.cache = GenerationCache(cache_dir) if cache_dir is not None else None
        self.usage = Usage(prices or Prices())
        self.on_reply = on_reply  # called per answer: cached ones first, then each as it arrives

    def ask(self, inputs: Sequence[Input], sampling: Sampling, seed: int = 0) -> list[Reply]:
        """One reply per input, in order (runs its own event loop; from async code, await
        :meth:`ask_async`)."""
        return asyncio.run(self.ask_async(inputs, sampling, seed))

    async def ask_async(
        self, inputs: Sequence[Input], sampling: Sampling, seed: int = 0
    ) -> list[Reply]:
        bodies = [request_body(self.endpoint, item, sampling, seed) for item in inputs]
        keys = [request_key(self.endpoint, body) for body in bodies]
        replies: dict[str, Reply] = {}
        todo: dict[str, bytes] = {}
        for key, body in zip(keys, bodies, strict=True):
            if key in replies or key in todo:
                continue
            if self.cache is not None and key in self.cache:
                replies[key] = Reply.from_entry(self.cache.get(key))
                self.usage.add(replies[key])
                if self.on_reply is not None:
                    self.on_reply(replies[key])
            else:
                todo[key] = json.dumps(body).encode()
        if todo:
            started = time.perf_counter()
            try:
                await self._fetch(todo, replies)
            finally:
                self.usage.seconds += time.perf_counter() - started
        return [replies[k] for k in keys]

    async def _fetch(self, todo: dict[str, bytes], replies: dict[str, Reply]) -> None:
        run = _Run(todo)
        timeout = aiohttp.ClientTimeout(total=self.endpoint.timeout_s)
        connector = aiohttp.TCPConnector(limit=self.endpoint.concurrency)
        headers = self.endpoint.headers()
        async with aiohttp.ClientSession(
            timeout=timeout, connector=connector, headers=headers
        ) as session:
            workers = min(self.endpoint.concurrency, len(todo))
            tasks = [
                asyncio.ensure_future(self._work(session, run, replies)) for _ in range(workers)
            ]
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in pending:  # one worker stopped the run: the others' requests are moot
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            for task in done:
                task.result()  # re-raise the first ServeError

    async def _work(
        self, session: aiohttp.ClientSession, run: _Run, replies: dict[str, Reply]
    ) -> None:
        for key, payload in run.items:
            reply = await self._one(session, run, key, payload)
            if self.cache is not None:
                self.cache.put([reply.to_entry()])
            replies[key] = reply
            self.usage.add(reply)
            if self.on_reply is not None:
                self.on_reply(reply)

    async def _attempt(
        self, session: aiohttp.ClientSession, key: str, payload: bytes
    ) -> Reply | _Failure:
        """A reply, or the failure of this attempt (retryable or a refusal)."""
        url = self.endpoint.url
        try:
            async with session.post(url, data=payload) as response:
                body = await response.read()
                status, wait = response.status, response.headers.get("Retry-After")
        except asyncio.TimeoutError:
            return _Failure("timeout", f"no answer within {self.endpoint.timeout_s:g} s")
        except aiohttp.ClientPayloadError as exc:
            return _Failure("bad_response", f"truncated body ({type(exc).__name__})")
        except aiohttp.ClientError as exc:
            return _Failure("connection", f"{type(exc).__name__}: {exc}")
        if status == 200:
            try:
                # an answer that echoes the key is kept, cached and recorded with it redacted
                data = redact_json(json.loads(body), self.endpoint)
                return read_reply(key, data, self.endpoint.api)
            except (ValueError, BadResponse) as exc:  # JSONDecodeError is a ValueError
                return _Failure("bad_response", f"unreadable response ({exc})")
        text = excerpt(body, self.endpoint)
        return _Failure(failure_kind(status), f"HTTP {status}: {text}", status, text, wait)

    def _chat_hint(self, failure: _Failure) -> str:
        """Why a chat request may fail for good while plain prompts would work: a model without
        a chat template (``transformers serve`` answers HTTP 500, vLLM 400 naming the template).
        Said only while no chat answer has ever come back for this model."""
        if self.endpoint.api != "chat" or self.usage.fetched or self.usage.cached:
            return ""
        named = failure.status in (400, 422) and "template" in failure.body.lower()
        # on 5xx, transformers serve may also drop a connection now and then: any 5xx counts
        if not (named or failure.kind == "http_5xx" or self.usage.failures["http_5xx"]):
            return ""
        return (
            "; no chat answer came back: if the model has no chat template, set "
            f"{self.endpoint.key('api')}=completions"
        )

    async def _one(
        self, session: aiohttp.ClientSession, run: _Run, key: str, payload: bytes
    ) -> Reply:
        policy, url = self.retry, self.endpoint.url
        for attempt in range(policy.max_attempts):
            self.usage.requests += 1
            outcome = await self._attempt(session, key, payload)
            if isinstance(outcome, Reply):
                run.consecutive = 0
                return outcome
            what = redact(outcome.what, self.endpoint)
            if outcome.kind is None:  # refused: the server will never accept this request
                refused = (
                    f"HTTP {outcome.status} from {url} (not retryable; check base_url, model, api "
                    f"and api_key_env): {outcome.body}{self._chat_hint(outcome)}"
                )
                raise ServeError(refused + self._kept(), refused)
            self.usage.failures[outcome.kind] += 1
            run.consecutive += 1
            if outcome.status is not None:
                run.last_http = what
            reason = None
            if run.consecutive >= policy.max_consecutive_failures:
                reason = f"{run.consecutive} consecutive failed requests to {url}, last: {what}"
                if run.last_http is not None and run.last_http != what:
                    reason += f"; last HTTP error: {run.last_http}"
            elif attempt + 1 == policy.max_attempts:
                reason = f"a request to {url} failed {policy.max_attempts} times, last: {what}"
            elif outcome.wait is not None and outcome.wait > policy.max_wait_s:
                reason = (
                    f"{url} asks to retry after {outcome.wait:.0f} s (more than max_wait_s "
                    f"{policy.max_wait_s:g})"
                )
            if reason is not None:
                reason += self._chat_hint(outcome)
                raise ServeError(reason + self._kept(), reason)
            self.usage.retries += 1
            await asyncio.sleep(
                outcome.wait if outcome.wait is not None else backoff(attempt, policy)
            )
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _kept(self) -> str:
        if self.cache is None:
            return "; stopped (no cache_dir: the answers of this run are not kept)"
        return (
            f"; stopped, {self.usage.fetched} answers of this run kept in "
            f"{self.cache.directory} (rerun resumes)"
        )
