"""Asking a judge every prompt of a stress suite, and reading its verdicts back.

Runs: a greedy judge answers every prompt once and the base prompts a second time — the two
answers must be identical (jitter verified 0); a sampling judge answers every prompt ``reruns``
times (>= 3), run ``r`` with seed ``seed + r``. The seed is part of every cache key, so a second
run is asked again, never read back. Verdicts are read with the judge's frozen target
parser; an answer it refuses is a parse failure (``None``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reasonbench.core.sources import GNA
from reasonbench.invariance.metrics import Comparison, PairRuns, Repeat
from reasonbench.invariance.suite import StressSuite
from reasonbench.judges.answering import Progress, ask_judge
from reasonbench.judges.base import Judge, JudgeError
from reasonbench.strata.organizational.model import LABELS
from reasonbench.targets import ParseResult, parse_target

__all__ = ["Answers", "ask", "parse_answers", "run_plan", "stress_rows"]

MIN_RERUNS = 3
Answers = dict[str, tuple[str, ...]]  # prompt -> one answer per run


@dataclass(frozen=True)
class RunPlan:
    runs: int  # answers per prompt
    base_runs: int  # answers per base prompt (the jitter measurement)


def run_plan(judge: Judge, reruns: int) -> RunPlan:
    if judge.sampling:
        if reruns < MIN_RERUNS:
            raise JudgeError(f"a sampling judge needs >= {MIN_RERUNS} reruns, got {reruns}")
        return RunPlan(reruns, reruns)
    return RunPlan(1, 2)  # greedy: one answer, plus a second on base prompts to verify jitter 0


def ask(
    judge: Judge,
    prompts: Sequence[str],
    runs: int,
    seed: int = 0,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> Answers:
    """Every distinct prompt answered ``runs`` times — through the one answering path of
    ``reasonbench evaluate`` (:func:`reasonbench.judges.answering.ask_judge`: its cache, its
    resume); the parser reads each answer's text."""
    answered = ask_judge(judge, prompts, runs, seed, cache_dir, progress)
    return {p: tuple(a.text for a in answers) for p, answers in answered.items()}


def parse_answers(
    answers: Mapping[str, Sequence[str]], target: str
) -> dict[str, tuple[ParseResult, ...]]:
    return {
        p: tuple(parse_target(target, t, LABELS, GNA) for t in texts)
        for p, texts in answers.items()
    }


def _verdicts(parsed: Sequence[ParseResult]) -> tuple[str | None, ...]:
    return tuple(getattr(r, "new", None) for r in parsed)


def stress_rows(
    suite: StressSuite, parsed: Mapping[str, Sequence[ParseResult]]
) -> tuple[list[Comparison], list[Repeat], list[PairRuns]]:
    """The metric inputs: the revised verdict is the verdict compared throughout."""
    comparisons, repeats, pairs = [], [], []
    for item in suite.items:
        base = _verdicts(parsed[item.base_prompt])
        repeats.append(Repeat(item.unit_id, base))
        for rewrite in item.rewrites:
            comparisons.append(
                Comparison(
                    item.unit_id,
                    rewrite.transform,
                    rewrite.variant,
                    item.clear,
                    base,
                    _verdicts(parsed[rewrite.prompt]),
                )
            )
        if item.pair is not None:
            strict = _verdicts(parsed[item.pair.strict_prompt])
            lax = _verdicts(parsed[item.pair.lax_prompt])
            pairs.append(PairRuns(item.unit_id, item.pair.expected, strict, lax))
    return comparisons, repeats, pairs
