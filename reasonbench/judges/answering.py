"""Asking a judge a list of prompts: the one path behind ``reasonbench evaluate`` and the Judge
Card (:func:`reasonbench.invariance.runs.ask`).

:func:`ask_judge` answers every distinct prompt ``runs`` times, run ``r`` with seed
``seed + r``, and keeps for each answer the text the frozen parser reads and the raw output. How
an answer is cached depends on what the judge can do — each capability is a small protocol:

* :class:`StreamingJudge` (the served judge): it caches every answer itself the moment it
  arrives and reports progress per answer; it gets each run's prompts in one call.
* :class:`Fingerprinted` (local model judges): answers are cached here, in the project's answer
  cache (:mod:`reasonbench.cache`) under ``cache_dir``, keyed by sha256 of (the judge's
  fingerprint, the prompt, the seed). Prompts are asked in fixed chunks of ``CHUNK`` (batched
  inside the judge) and each chunk is cached when done, so a killed run loses at most one chunk
  and resumes. A *sampling* local judge draws one random stream per batch, so its answer also
  depends on the chunk it was asked in: its key then includes the chunk, and a cached answer is
  reused only where it would be reproduced.
* any other judge (the fast, deterministic baselines), or any judge when ``cache_dir`` is
  ``None``, is asked afresh, each run in one call.

A judge that keeps more than the parsed text implements :class:`RawAnswers`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from reasonbench.cache import GenerationCache, content_key, sha256_text
from reasonbench.judges.base import Judge, JudgeError

__all__ = [
    "CHUNK",
    "Output",
    "Progress",
    "Fingerprinted",
    "RawAnswers",
    "StreamingJudge",
    "ask_judge",
    "judge_answers",
]

CHUNK = 64  # prompts per generate() call of a local judge: the unit of caching and progress


class Progress(Protocol):
    """Called with the number of answers just finished, and whether they came from a cache
    (:meth:`reasonbench.progress.Progress.update`: cache hits print no progress line)."""

    def __call__(self, done: int, /, cached: bool = False) -> None: ...


@dataclass(frozen=True)
class Output:
    text: str  # what the frozen parser reads (what a judge said, before parsing)
    raw: str  # the judge's whole output (reasoning and extra lines included)


@runtime_checkable
class RawAnswers(Protocol):
    def answers(self, prompts: Sequence[str], seed: int = 0) -> list[Output]: ...


@runtime_checkable
class StreamingJudge(Protocol):
    def stream(
        self, prompts: Sequence[str], seed: int, progress: Progress | None
    ) -> list[Output]: ...


@runtime_checkable
class Fingerprinted(Protocol):
    def fingerprint(self) -> dict[str, Any]:
        """Everything besides prompt and seed that decides an answer (model identity, decoding,
        prompt rendering), as JSON."""
        ...


def judge_answers(judge: Judge, prompts: Sequence[str], seed: int) -> list[Output]:
    """One call of the judge, with raw outputs when it keeps them."""
    if isinstance(judge, RawAnswers):
        out = judge.answers(prompts, seed)
    else:
        out = [Output(t, t) for t in judge.generate(prompts, seed=seed)]
    if len(out) != len(prompts) or not all(isinstance(a.text, str) for a in out):
        raise JudgeError(f"{judge.name}: {len(out)} answers for {len(prompts)} prompts")
    return out


def _one_run(
    judge: Judge,
    prompts: Sequence[str],
    seed: int,
    cache: tuple[GenerationCache, dict[str, Any]] | None,
    progress: Progress | None,
) -> list[Output]:
    if isinstance(judge, StreamingJudge):
        return judge.stream(prompts, seed, progress)
    if cache is None:  # one call, as the judge prefers (a baseline fits once per call)
        out = judge_answers(judge, prompts, seed)
        if progress is not None:
            progress(len(out))
        return out
    store, fingerprint = cache
    out = []
    for start in range(0, len(prompts), CHUNK):
        chunk = prompts[start : start + CHUNK]
        within = sha256_text("\0".join(chunk)) if judge.sampling else None
        keys = [
            content_key({"judge": fingerprint, "prompt": sha256_text(p), "seed": seed,
                         "chunk": within, "index": i if within else None})
            for i, p in enumerate(chunk)
        ]  # fmt: skip
        hit = all(k in store for k in keys)
        if not hit:
            fresh = judge_answers(judge, chunk, seed)
            store.put(
                [{"key": k, "text": a.text, "raw": a.raw} for k, a in zip(keys, fresh, strict=True)]
            )
        out += [Output(store.get(k)["text"], store.get(k)["raw"]) for k in keys]
        if progress is not None:
            progress(len(chunk), cached=hit)
    return out


def ask_judge(
    judge: Judge,
    prompts: Sequence[str],
    runs: int,
    seed: int = 0,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, tuple[Output, ...]]:
    """Every distinct prompt answered ``runs`` times (run ``r`` with seed ``seed + r``)."""
    unique = list(dict.fromkeys(prompts))
    cache = None
    if cache_dir is not None and isinstance(judge, Fingerprinted):
        fingerprint = judge.fingerprint()
        group = content_key({"judge": fingerprint})[:16]  # one directory per judge
        cache = (GenerationCache(Path(cache_dir) / group), fingerprint)
    answers: dict[str, list[Output]] = {p: [] for p in unique}
    try:
        for run in range(runs):
            texts = _one_run(judge, unique, seed + run, cache, progress)
            if len(texts) != len(unique):
                raise JudgeError(
                    f"{judge.name}: run {run} gave {len(texts)} answers for {len(unique)}"
                )
            for prompt, answer in zip(unique, texts, strict=True):
                answers[prompt].append(answer)
    finally:
        if cache is not None:
            cache[0].close()
    return {p: tuple(a) for p, a in answers.items()}
