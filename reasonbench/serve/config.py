"""What the client talks to and how: the endpoint, the sampling of one request, retry policy, prices.

The API key is never a field: :class:`Endpoint` holds the *name* of the environment variable
that holds it (``api_key_env``), read only when a request's headers are built. So no config,
cache entry, usage file, log line or exception message can contain the key from our side; what
comes back from a server may echo it, so :func:`redact` and :func:`redact_json` replace it by
``***`` in every text a server sent before anything reads it — an error body before it is cut to
an excerpt, an answer before it is cached or recorded.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "APIS",
    "Endpoint",
    "Prices",
    "RetryPolicy",
    "Sampling",
    "ServeError",
    "redact",
    "redact_json",
]

APIS = ("chat", "completions")  # /v1/chat/completions, /v1/completions (base models)


class ServeError(RuntimeError):
    """A served-model run that cannot go on; the message is one line and names the endpoint.

    ``reason`` is the message without the client's note on where this run's answers are kept,
    for callers that keep the answers themselves (``certify``'s ``llm`` judge)."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible server: ``base_url`` ends before the API path (``…/v1``).

    ``key_prefix`` is how the caller's configuration names these fields (``judge.args.`` for the
    ``openai`` judge): messages then name the key to change (``judge.args.timeout_s must be ...``).
    It only words messages: it is no part of the endpoint's identity or record."""

    base_url: str
    model: str
    api: str = "chat"
    api_key_env: str | None = None  # name of the environment variable holding the key
    concurrency: int = 8  # requests in flight at once
    timeout_s: float = 60.0  # one request, connect to last byte
    max_tokens_key: str = "max_tokens"  # OpenAI's reasoning models want max_completion_tokens
    extra_body: dict[str, Any] = field(default_factory=dict)  # more request fields (in the key)
    key_prefix: str = field(default="", compare=False, repr=False)

    def key(self, name: str) -> str:
        """The configuration key of field ``name``, as the user writes it."""
        return f"{self.key_prefix}{name}"

    def __post_init__(self) -> None:
        if self.api not in APIS:
            raise ServeError(f"{self.key('api')} must be one of {list(APIS)}, got {self.api!r}")
        if not isinstance(self.base_url, str) or not self.base_url.startswith(
            ("http://", "https://")
        ):
            raise ServeError(
                f"{self.key('base_url')} must start with http:// or https://, got {self.base_url!r}"
            )
        if not isinstance(self.model, str) or not self.model:
            raise ServeError(
                f"{self.key('model')} must be the served model's name, got {self.model!r}"
            )
        # a bool is an int to Python, and 1.5 requests in flight is no setting: refuse both
        whole = isinstance(self.concurrency, int) and not isinstance(self.concurrency, bool)
        if not whole or self.concurrency < 1:
            raise ServeError(
                f"{self.key('concurrency')} must be an integer >= 1, got {self.concurrency!r}"
            )
        # NaN compares false with everything, so "<= 0" alone would let it through and switch
        # the timeout off; infinity would too
        if not _is_number(self.timeout_s) or not (
            math.isfinite(self.timeout_s) and self.timeout_s > 0
        ):
            raise ServeError(
                f"{self.key('timeout_s')} must be a finite number of seconds > 0, got "
                f"{self.timeout_s!r}"
            )

    @property
    def url(self) -> str:
        path = "chat/completions" if self.api == "chat" else "completions"
        return f"{self.base_url.rstrip('/')}/{path}"

    def to_json(self) -> dict[str, Any]:
        """The endpoint as recorded beside results (the key's variable name, never the key)."""
        record = {**asdict(self), "extra_body": dict(self.extra_body)}
        del record["key_prefix"]  # how messages word the keys, not what was asked
        return record

    def api_key(self) -> str | None:
        """The key, read from the environment at request time (never stored)."""
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise ServeError(
                f"environment variable {self.api_key_env} ({self.key('api_key_env')}) is not set"
            )
        return key

    def headers(self) -> dict[str, str]:
        key = self.api_key()
        auth = {"Authorization": f"Bearer {key}"} if key else {}
        return {"Content-Type": "application/json", **auth}


def _key_forms(endpoint: Endpoint) -> tuple[str, ...]:
    """The key as a server may echo it: as sent, and escaped inside a JSON string (a key holding
    ``/`` or ``"`` reads differently there); longest first, so no form leaves part of another."""
    key = os.environ.get(endpoint.api_key_env) if endpoint.api_key_env else None
    if not key:
        return ()
    return tuple(sorted({key, json.dumps(key)[1:-1]}, key=len, reverse=True))


def redact(text: str, endpoint: Endpoint) -> str:
    """``text`` with the endpoint's key (if set in the environment) replaced by ``***``. Redact
    whole texts, then cut them: a key cut first would no longer match, and its first part would
    be shown."""
    for form in _key_forms(endpoint):
        text = text.replace(form, "***")
    return text


def redact_json(value: Any, endpoint: Endpoint) -> Any:
    """A decoded JSON value with the key redacted in every string in it, keys included."""
    if isinstance(value, str):
        return redact(value, endpoint)
    if isinstance(value, list):
        return [redact_json(v, endpoint) for v in value]
    if isinstance(value, dict):
        return {redact(str(k), endpoint): redact_json(v, endpoint) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Sampling:
    """How one request decodes. ``temperature == 0`` is greedy; ``seed`` is sent with every
    request (servers that honour it make sampled runs replayable)."""

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 64
    stop: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.temperature < 0 or not 0 < self.top_p <= 1 or self.max_tokens < 1:
            raise ServeError(f"need temperature >= 0, 0 < top_p <= 1, max_tokens >= 1: {self}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "stop": list(self.stop)}


@dataclass(frozen=True)
class RetryPolicy:
    """Retries with exponential backoff and jitter; ``Retry-After`` waits are honoured up to
    ``max_wait_s`` (a longer one stops the run). ``max_consecutive_failures`` failed attempts in
    a row, across all requests, stop the run: a dead server is noticed in seconds."""

    max_attempts: int = 8  # per request
    backoff_s: float = 0.5  # first retry waits in [backoff_s / 2, backoff_s]
    max_backoff_s: float = 30.0
    max_wait_s: float = 120.0
    max_consecutive_failures: int = 20

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.max_consecutive_failures < 1:
            raise ServeError(f"max_attempts and max_consecutive_failures must be >= 1: {self}")
        if self.backoff_s < 0 or self.max_backoff_s < self.backoff_s or self.max_wait_s < 0:
            raise ServeError(f"need 0 <= backoff_s <= max_backoff_s and max_wait_s >= 0: {self}")


@dataclass(frozen=True)
class Prices:
    """Prices per 1M tokens (any currency; reasoning tokens are billed as output)."""

    input_per_1m: float = 0.0
    output_per_1m: float = 0.0
    currency: str = "USD"

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input_per_1m + completion_tokens * self.output_per_1m) / 1e6
