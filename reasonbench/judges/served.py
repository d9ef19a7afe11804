"""Any OpenAI-compatible server as a judge (``openai``): vLLM, SGLang, TGI, Ollama, llama.cpp,
``transformers serve`` or a hosted API.

Each benchmark prompt becomes the task instruction plus ``num_fewshot`` examples from ``train``
(:mod:`reasonbench.judges.prompting`): chat messages for ``api: chat`` (the server applies the
model's chat template), plain text for ``api: completions`` (base models). Answers come through
:class:`reasonbench.serve.Client` — concurrent, retried, cached per answer, so an interrupted
run resumes and a rerun sends nothing. The reasoning (``<think>`` block or the API's reasoning
field) is split off, the answer cut to the target's lines as for local zero-shot models, and the
frozen strict parser reads it; :meth:`ServedJudge.replies` keeps every raw output.

Decoding is the same config as ``hf_zero_shot``'s: ``sample: false`` sends temperature 0 (a
greedy judge); ``sample: true`` sends ``temperature`` and ``top_p``, and run ``r`` sends seed
``seed + r``, so the Judge Card measures an API model's jitter from real reruns. The seed is part
of every request's cache key: a greedy judge's second run is asked again, not read back, so its
zero jitter is verified, never assumed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.cache import content_key
from reasonbench.judges.answering import Output, Progress
from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.prompting import Prompter, fewshot_examples
from reasonbench.serve import Client, Endpoint, Prices, Reply, RetryPolicy, Sampling, Usage
from reasonbench.targets.trim import trim_lines

__all__ = ["ServedJudge", "openai_judge", "sampling_of"]

ARGS = "judge.args."  # where the configuration keeps this factory's arguments (conf/judge/)


def sampling_of(decoding: Decoding, stop: Sequence[str] = ()) -> Sampling:
    """A judge's decoding as request fields: greedy is temperature 0."""
    return Sampling(
        temperature=decoding.temperature if decoding.sample else 0.0,
        top_p=decoding.top_p if decoding.sample else 1.0,
        max_tokens=decoding.max_new_tokens,
        stop=tuple(stop),
    )


class ServedJudge:
    def __init__(
        self,
        name: str,
        target: str,
        client: Client,
        prompter: Prompter,
        sampling: Sampling,
        trim: bool = True,
    ) -> None:
        self.name, self.target = name, check_target(target)
        self.client, self.prompter, self.decoding, self.trim = client, prompter, sampling, trim

    @property
    def sampling(self) -> bool:
        return not self.decoding.greedy

    @property
    def usage(self) -> Usage:
        """Requests, tokens and cost so far (all runs of this judge object)."""
        return self.client.usage

    def inputs(self, prompts: Sequence[str]) -> list[Any]:
        render = (
            self.prompter.messages if self.client.endpoint.api == "chat" else self.prompter.text
        )
        return [render(p) for p in prompts]

    def replies(self, prompts: Sequence[str], seed: int = 0) -> list[Reply]:
        """Every reply with its raw content, reasoning and token counts."""
        return self.client.ask(self.inputs(prompts), self.decoding, seed)

    def answer(self, reply: Reply) -> str:
        """What the strict parser reads: the reply without reasoning, cut to the target's lines."""
        return trim_lines(reply.text, self.target) if self.trim else reply.text

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [self.answer(r) for r in self.replies(prompts, seed)]

    def answers(self, prompts: Sequence[str], seed: int = 0) -> list[Output]:
        return self.stream(prompts, seed, None)

    def stream(self, prompts: Sequence[str], seed: int, progress: Progress | None) -> list[Output]:
        """The answers of one run; ``progress(1, cached)`` per answer (cached ones first, then each
        as it arrives). The client caches each answer itself."""
        saved = self.client.on_reply
        if progress is not None:
            self.client.on_reply = lambda reply: progress(1, reply.cached)
        try:
            replies = self.replies(prompts, seed)
        finally:
            self.client.on_reply = saved
        return [Output(self.answer(r), r.raw) for r in replies]

    def describe(self) -> dict[str, Any]:
        """The judge as recorded beside its results (never the API key)."""
        return {
            "endpoint": self.client.endpoint.to_json(),
            "sampling": self.decoding.to_json(),
            "fewshot_ids": list(self.prompter.example_ids()),
            "system_prompt": self.prompter.system,
            "trim": self.trim,
        }


@register_judge("openai")
def openai_judge(
    name: str,
    base_url: str,
    model: str,
    api: str = "chat",
    api_key_env: str | None = None,
    target: str = "direct_receipt",
    decoding: Mapping[str, Any] | None = None,
    stop: Sequence[str] = (),
    concurrency: int = 8,
    timeout_s: float = 60.0,
    retry: Mapping[str, Any] | None = None,
    prices: Mapping[str, Any] | None = None,
    num_fewshot: int = 0,
    data_dir: str | None = None,
    fewshot_seed: int = 0,
    system_prompt: bool = True,
    cache_dir: str | None = "data/cache/served",
    trim: bool = True,
    max_tokens_key: str = "max_tokens",
    extra_body: Mapping[str, Any] | None = None,
) -> ServedJudge:
    """A served model; the key is read from the environment variable named ``api_key_env``.
    The endpoint checks its own fields (no silent ``int()``: ``concurrency=1.5`` is refused, not
    read as 1) and its messages name them as ``judge.args.<key>``."""
    endpoint = Endpoint(
        base_url=base_url,
        model=model,
        api=api,
        api_key_env=api_key_env,
        concurrency=concurrency,
        timeout_s=timeout_s,
        max_tokens_key=max_tokens_key,
        extra_body=dict(extra_body or {}),
        key_prefix=ARGS,
    )
    if num_fewshot and data_dir is None:
        raise JudgeError("num_fewshot > 0 needs data_dir (the examples come from its train split)")
    shots = fewshot_examples(Path(data_dir or "."), check_target(target), num_fewshot, fewshot_seed)
    # one cache directory per served model: small files, and one model's answers stay together
    where = None
    if cache_dir is not None:
        where = Path(cache_dir) / content_key({"model": model, "api": api})[:16]
    client = Client(endpoint, where, RetryPolicy(**dict(retry or {})), Prices(**dict(prices or {})))
    prompter = Prompter(target, tuple(shots), system=bool(system_prompt))
    return ServedJudge(
        name, target, client, prompter, sampling_of(Decoding(**dict(decoding or {})), stop), trim
    )
