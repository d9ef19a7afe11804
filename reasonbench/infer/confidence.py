"""Confidences of a generation, each named by its ``confidence_source``.

* ``seq_prob``: probability of the whole emitted target sequence (end-of-sequence included), the
  product of the greedy tokens' probabilities.
* ``verdict_token_prob``: probability of the tokens that spell the revised verdict (the
  ``verdict:``/``new:`` value, or the cube's all-sources cell from which the verdict is derived),
  conditional on everything emitted before them. Defined only when the output parsed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from reasonbench.core.answer import Answer
from reasonbench.core.sources import GNA
from reasonbench.infer.decode import Generation
from reasonbench.targets import get_target, parse_target

SOURCES = ("seq_prob", "verdict_token_prob")


def verdict_span(target: str, text: str, sources: tuple[str, ...] = GNA) -> tuple[int, int] | None:
    """Character span of the revised verdict in a *parsed* output (None if not found)."""
    pattern = get_target(target).verdict_pattern(sources)
    # the last match: the cube's full cell comes last; the other keys occur once
    matches = list(re.finditer(pattern, text))
    return matches[-1].span(1) if matches else None


def token_ends(tokenizer: Any, token_ids: Sequence[int]) -> list[int]:
    """Character offset where each token's text ends in the decoded output (cumulative decoding
    is exact for byte-level tokenizers, whose single tokens may be partial characters)."""
    return [
        len(tokenizer.decode(list(token_ids[: i + 1]), skip_special_tokens=True))
        for i in range(len(token_ids))
    ]


def span_logprob(
    ends: Sequence[int], logprobs: Sequence[float], span: tuple[int, int]
) -> float | None:
    start, stop = span
    total, hit, begin = 0.0, False, 0
    for end, lp in zip(ends, logprobs, strict=False):  # logprobs may end with the eos token's
        if begin < stop and end > start:
            total += lp
            hit = True
        begin = end
    return total if hit else None


def probability(logprob: float | None) -> float | None:
    if logprob is None:
        return None
    return min(1.0, max(0.0, math.exp(logprob)))


def cache_entry(
    key: str, gen: Generation, tokenizer: Any, target: str, labels: frozenset[str], batch: int
) -> dict[str, Any]:
    """The cache line of one generation: its text and both confidences (so switching the
    configured source recomputes nothing) and the batch size it was decoded in."""
    raw = tokenizer.decode(list(gen.token_ids), skip_special_tokens=True)
    verdict_lp = None
    if isinstance(parse_target(target, raw, labels), Answer):
        span = verdict_span(target, raw)
        if span is not None:
            ends = token_ends(tokenizer, gen.token_ids)
            verdict_lp = span_logprob(ends, gen.logprobs, span)
    return {
        "key": key,
        "raw_output": raw,
        "new_tokens": len(gen.logprobs),
        "finished": gen.finished,
        "seq_logprob": gen.seq_logprob,
        "seq_prob": probability(gen.seq_logprob),
        "verdict_logprob": verdict_lp,
        "verdict_token_prob": probability(verdict_lp),
        "batch_size": batch,
    }
