"""Running one judge through the stress suite and the accuracy items: the Judge Card's numbers.

1. build the stress suite of the organizational items of the chosen splits (every rewrite and
   threshold-shift side certified by execution, :mod:`reasonbench.invariance.suite`);
2. ask the judge every distinct prompt (rewrites, pair sides, base prompts, and the items'
   locked controls) — greedy judges once plus a second base run to verify zero jitter, sampling
   judges ``reruns`` times;
3. read the verdicts with the judge's frozen parser, compute the invariance metrics under both
   parse-failure handlings, and score the base answers like any prediction records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.core.answer import Answer
from reasonbench.invariance.metrics import HANDLINGS, REPLICATES, PisConfig, invariance_report
from reasonbench.invariance.runs import Answers, ask, parse_answers, run_plan, stress_rows
from reasonbench.invariance.suite import StressSuite, build_suite
from reasonbench.io import data_identity, read_manifest
from reasonbench.judge_card.accuracy import CONTROLS, accuracy_section, control_rows
from reasonbench.judge_card.record import JudgeCard
from reasonbench.judges.answering import Progress
from reasonbench.judges.base import Judge
from reasonbench.progress import Progress as ProgressBar
from reasonbench.settings import help_line
from reasonbench.targets import ParseResult

__all__ = ["CardSettings", "evaluate_judge"]


@dataclass(frozen=True)
class CardSettings:
    """What a Judge Card measures; ``reasonbench judge-card``'s keys are these fields."""

    splits: tuple[str, ...] = field(
        default=("test_locked",),
        metadata=help_line("organizational items of these splits are stress-tested"),
    )
    max_items: int | None = field(
        default=None, metadata=help_line("a seeded subset of the items (null: all)")
    )
    seed: int = field(
        default=0, metadata=help_line("seed of the subset, the answers and the bootstrap")
    )
    reruns: int = field(
        default=3,
        metadata=help_line(
            "answers per prompt for a sampling judge (>= 3); greedy judges: 1 (+1 to verify)"
        ),
    )
    margin: int = field(
        default=1,
        metadata=help_line('grid steps that put a case "at a threshold" (an ambiguous item)'),
    )
    replicates: int = field(
        default=REPLICATES, metadata=help_line("clustered bootstrap over clauses")
    )
    controls: bool = field(
        default=True,
        metadata=help_line("also answer the items' locked controls (paired consistency)"),
    )
    pis: PisConfig = field(
        default_factory=PisConfig,
        metadata=help_line(
            PisConfig.__doc__ or ""
        ),  # the formula, written once where it is defined
    )


def _failure_rate(
    prompts: Sequence[str], parsed: Mapping[str, Sequence[ParseResult]]
) -> float | None:
    results = [r for p in dict.fromkeys(prompts) for r in parsed[p]]
    return sum(not isinstance(r, Answer) for r in results) / len(results) if results else None


def _kinds(suite: StressSuite, controls: Sequence[str]) -> dict[str, list[str]]:
    return {
        "base": [i.base_prompt for i in suite.items],
        "rewrites": [r.prompt for i in suite.items for r in i.rewrites],
        "threshold_pairs": [
            p for i in suite.items if i.pair for p in (i.pair.strict_prompt, i.pair.lax_prompt)
        ],
        "controls": list(controls),
    }


def _data(data_dir: Path, suite: StressSuite, settings: CardSettings) -> dict[str, Any]:
    identity = data_identity(read_manifest(data_dir))
    return {
        "manifest_sha256": identity.manifest_sha256,
        "benchmark": identity.benchmark,
        "data_dir": str(data_dir),
        "stratum": "organizational",
        "splits": list(settings.splits),
        "items": len(suite.items),
        "units": len({i.unit_id for i in suite.items}),
        "clear_items": sum(i.clear for i in suite.items),
        "rewrites": sum(len(i.rewrites) for i in suite.items),
        "threshold_pairs": sum(i.pair is not None for i in suite.items),
        "expected_to_lax": sum(
            i.pair is not None and i.pair.expected == "to_lax" for i in suite.items
        ),
        "unchanged_rewrites": dict(suite.unchanged),
        "items_without_pair": suite.without_pair,
    }


def evaluate_judge(
    judge: Judge,
    data_dir: Path,
    settings: CardSettings,
    info: Mapping[str, Any] | None = None,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    show_progress: bool = False,
) -> tuple[JudgeCard, StressSuite, Answers]:
    """The card, the suite it was computed on and every answer the judge gave. Answers come
    through the answering path of ``reasonbench evaluate`` (cached under ``cache_dir``).
    ``show_progress`` reports the suite's certification and the answering (rate and ETA)."""
    suite = build_suite(
        data_dir, settings.splits, settings.seed, settings.max_items, settings.margin,
        progress=show_progress,
    )  # fmt: skip
    parents = {i.item_id for i in suite.items}
    controls = control_rows(data_dir, parents) if settings.controls else []
    plan = run_plan(judge, settings.reruns)
    asked = [*suite.prompts(), *(c["prompt"] for c in controls)]
    base = list(dict.fromkeys(i.base_prompt for i in suite.items))
    extra = plan.base_runs - plan.runs
    total = len(dict.fromkeys(asked)) * plan.runs + len(base) * max(0, extra)
    with ProgressBar(total, "judge-card answers", "answers", show_progress) as bar:

        def report(done: int, cached: bool = False) -> None:
            bar.update(done, cached)
            if progress is not None:
                progress(done, cached)

        answers = ask(judge, asked, plan.runs, settings.seed, cache_dir, report)
        if extra > 0:  # greedy: a second answer on every base prompt
            again = ask(judge, base, extra, settings.seed + plan.runs, cache_dir, report)
            answers.update({p: (*answers[p], *again[p]) for p in base})
    parsed = parse_answers(answers, judge.target)
    comparisons, repeats, pairs = stress_rows(suite, parsed)
    reports = {
        h: invariance_report(
            comparisons, repeats, pairs, settings.pis, h, settings.replicates, settings.seed
        )
        for h in HANDLINGS
    }
    items = [(i.item_id, i.split, i.base_prompt) for i in suite.items]
    checks = [(c["id"], CONTROLS, c["prompt"]) for c in controls]
    accuracy = accuracy_section(data_dir, judge.name, judge.target, items, checks, answers, parsed)
    kinds = _kinds(suite, [c["prompt"] for c in controls])
    runs = {
        "answers_per_prompt": plan.runs,
        "answers_per_base_prompt": plan.base_runs,
        "distinct_prompts": len(answers),
        "sampling": judge.sampling,
        # a greedy judge must answer the same prompt identically; False flags a broken decoder
        "greedy_jitter_verified": None
        if judge.sampling
        else all(len(set(answers[p])) == 1 for p in base),
        "parse_failure_rate": {k: _failure_rate(v, parsed) for k, v in kinds.items()},
    }
    card = JudgeCard(
        judge={
            "name": judge.name,
            "target": judge.target,
            "sampling": judge.sampling,
            **(info or {}),
        },
        data=_data(data_dir, suite, settings),
        runs=runs,
        invariance=reports,
        accuracy=accuracy,
        pis_config=settings.pis,
        settings={
            k: list(v) if k == "splits" else v for k, v in asdict(settings).items() if k != "pis"
        },
    )
    return card, suite, answers
