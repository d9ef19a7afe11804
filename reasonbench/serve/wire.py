"""The two OpenAI request shapes, and reading one response into a :class:`Reply`.

``/v1/chat/completions`` takes ``messages`` (the server applies the model's chat template);
``/v1/completions`` takes a raw ``prompt`` (base models without a chat template). The cache key
of a request is the sha256 of its whole JSON body (model, messages or prompt, every decoding
field, the seed, any extra field) and the API — what decides the answer, never the key or URL.

Reasoning models: the API's reasoning field (``reasoning_content`` or ``reasoning``) and a
``<think>…</think>`` block at the start of the content are split off; :attr:`Reply.text` is
what a parser reads, :attr:`Reply.raw` the content exactly as it came. Reasoning tokens are the
API's count (``usage.completion_tokens_details.reasoning_tokens``) or, when it reports none for
a reply that did reason, an estimate by character share (``reasoning_tokens_estimated``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from reasonbench.cache import content_key
from reasonbench.serve.config import Endpoint, Sampling
from reasonbench.targets.trim import split_reasoning

__all__ = ["BadResponse", "Message", "Reply", "request_body", "request_key", "split_reasoning"]

Message = Mapping[str, str]
Input = str | Sequence[Message]  # a prompt, or chat messages


class BadResponse(ValueError):
    """A 200 response that is not the JSON the API promises (truncated, wrong shape)."""


def messages_of(item: Input, api: str) -> Any:
    if api == "completions":
        if not isinstance(item, str):
            raise TypeError("the completions API takes a prompt string, not chat messages")
        return item
    if isinstance(item, str):
        return [{"role": "user", "content": item}]
    return [dict(m) for m in item]


def request_body(endpoint: Endpoint, item: Input, sampling: Sampling, seed: int) -> dict[str, Any]:
    body: dict[str, Any] = {"model": endpoint.model}
    if endpoint.api == "chat":
        body["messages"] = messages_of(item, "chat")
        body[endpoint.max_tokens_key] = sampling.max_tokens
    else:
        body["prompt"] = messages_of(item, "completions")
        body["max_tokens"] = sampling.max_tokens
    body["temperature"] = sampling.temperature
    if not sampling.greedy:
        body["top_p"] = sampling.top_p
    if sampling.stop:
        body["stop"] = list(sampling.stop)
    body["seed"] = seed
    body.update(endpoint.extra_body)
    return body


def request_key(endpoint: Endpoint, body: Mapping[str, Any]) -> str:
    return content_key({"api": endpoint.api, "body": dict(body)})


@dataclass(frozen=True)
class Reply:
    """One answer; :meth:`to_entry` / :meth:`from_entry` are its cache line."""

    key: str
    text: str  # content without reasoning: what the parser reads
    raw: str  # content exactly as returned
    reasoning: str | None
    finish_reason: str | None
    prompt_tokens: int | None  # None: the server reported no usage
    completion_tokens: int | None
    reasoning_tokens: int | None
    reasoning_tokens_estimated: bool = False
    cached: bool = False

    def to_entry(self) -> dict[str, Any]:
        entry = asdict(self)
        del entry["cached"], entry["text"]  # text is derived from raw; cached is per run
        return entry

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> Reply:
        fields = {k: v for k, v in entry.items() if k in cls.__dataclass_fields__}
        text, _ = split_reasoning(str(entry["raw"]))
        return cls(text=text, **{**fields, "cached": True})


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_reply(key: str, data: object, api: str) -> Reply:
    """The reply in a decoded response body; :class:`BadResponse` when it is malformed."""
    if not isinstance(data, dict):
        raise BadResponse("the response is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise BadResponse("the response has no choices")
    choice = choices[0]
    if api == "chat":
        message = choice.get("message")
        if not isinstance(message, dict):
            raise BadResponse("the chat response has no message")
        content, source = message.get("content"), message
    else:
        content, source = choice.get("text"), choice
    if content is not None and not isinstance(content, str):
        raise BadResponse("the response content is not text")
    raw = content or ""  # null content (e.g. the budget ran out while reasoning): no answer
    text, think = split_reasoning(raw)
    field = source.get("reasoning_content") or source.get("reasoning")
    reasoning = field if isinstance(field, str) and field else think
    found = data.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    details = usage.get("completion_tokens_details")
    counted = _count(details.get("reasoning_tokens")) if isinstance(details, dict) else None
    counted = counted if counted is not None else _count(usage.get("reasoning_tokens"))
    completion = _count(usage.get("completion_tokens"))
    estimated = False
    if not counted and reasoning and completion:  # reasoned, but the API did not say how much
        counted = round(completion * len(reasoning) / (len(reasoning) + len(text)))
        estimated = True
    return Reply(
        key=key,
        text=text,
        raw=raw,
        reasoning=reasoning,
        finish_reason=finish if isinstance(finish := choice.get("finish_reason"), str) else None,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=completion,
        reasoning_tokens=counted,
        reasoning_tokens_estimated=estimated,
    )
