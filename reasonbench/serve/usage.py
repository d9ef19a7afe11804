"""Token and request accounting of a served-model run, with its cost.

``fetched`` counts what this run asked the server for (and paid), ``cached`` what it read from
the cache instead; tokens are kept apart the same way, so ``cost`` is this run's spending and
``cost_all`` what every answer it returned cost when it was first fetched. ``failures`` counts
failed attempts by kind (``http_429``, ``http_5xx``, ``timeout``, ``connection``,
``bad_response``, ...); each was retried or stopped the run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.io.atomic import write_json
from reasonbench.serve.config import Prices
from reasonbench.serve.wire import Reply

__all__ = ["Usage", "write_usage"]

TOKENS = ("prompt_tokens", "completion_tokens", "reasoning_tokens")


@dataclass
class Usage:
    prices: Prices = field(default_factory=Prices)
    requests: int = 0  # HTTP attempts sent
    fetched: int = 0  # answers received from the server in this run
    cached: int = 0  # answers read from the cache
    retries: int = 0
    without_usage: int = 0  # fetched answers whose response reported no token usage
    failures: Counter[str] = field(default_factory=Counter)
    tokens: Counter[str] = field(default_factory=Counter)  # of fetched answers
    tokens_cached: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0  # wall time spent answering misses

    def add(self, reply: Reply) -> None:
        if reply.cached:
            self.cached += 1
        else:
            self.fetched += 1
            self.without_usage += reply.prompt_tokens is None
        into = self.tokens_cached if reply.cached else self.tokens
        for name in TOKENS:
            into[name] += getattr(reply, name) or 0

    def cost(self, tokens: Counter[str]) -> float:
        return self.prices.cost(tokens["prompt_tokens"], tokens["completion_tokens"])

    def to_json(self) -> dict[str, Any]:
        everything = self.tokens + self.tokens_cached
        return {
            "requests": self.requests,
            "answers_fetched": self.fetched,
            "answers_cached": self.cached,
            "retries": self.retries,
            "failures": dict(sorted(self.failures.items())),
            "answers_without_usage": self.without_usage,
            "tokens": {n: self.tokens[n] for n in TOKENS},
            "tokens_cached": {n: self.tokens_cached[n] for n in TOKENS},
            "prices_per_1m": {
                "input": self.prices.input_per_1m,
                "output": self.prices.output_per_1m,
                "currency": self.prices.currency,
            },
            "cost": round(self.cost(self.tokens), 6),
            "cost_all": round(self.cost(everything), 6),
            "seconds": round(self.seconds, 3),
            "requests_per_s": round(self.fetched / self.seconds, 2) if self.seconds else None,
        }

    def summary(self) -> str:
        """One line for the end of a run."""
        t = self.tokens
        failed = ", ".join(f"{k} {v}" for k, v in sorted(self.failures.items())) or "none"
        return (
            f"{self.fetched} fetched, {self.cached} cached; {t['prompt_tokens']} prompt + "
            f"{t['completion_tokens']} completion tokens ({t['reasoning_tokens']} reasoning); "
            f"cost {self.cost(t):.4f} {self.prices.currency} "
            f"(all answers {self.cost(t + self.tokens_cached):.4f}); "
            f"{self.retries} retries; failures: {failed}"
        )


def write_usage(path: Path, usage: Usage, extra: dict[str, Any] | None = None) -> None:
    """``usage.json`` (or any path) written atomically, for callers without an output layer
    of their own (``reasonbench evaluate`` writes it through its :class:`~reasonbench.io.OutputDir`)."""
    write_json(path, {**usage.to_json(), **(extra or {})})
