"""ReasonBench as an inspect_ai task (docs/integrations.md)::

    inspect eval reasonbench/integrations/inspect.py -T target=direct_receipt \\
        -T data_dir=/path/to/build --model openai-api/local/<model>

:func:`reasonbench` builds the task over a local build (the project's split reader, nothing from
a hub):

* a dataset of ``Sample``s, one per example of ``split``: the frozen prompt and the answer cue
  as the user message (with ``instruction``, the target's task instruction before it as a system
  message), the gold answer as the target, the example's gold as metadata;
* a solver that sends it as it is: ``generate()``, greedy, up to the target's ``max_new_tokens``;
* a scorer that reads the completion with the target's frozen strict parser and scores it as
  ``analyze`` does: every registered metric that applies to the target, per sample (NaN where an
  example does not count), aggregated by :func:`rates` as Σ numerator / Σ denominator.

inspect runs a task file from the file's own directory, so a relative ``data_dir`` is taken from
the directory inspect was started in (the shell's ``PWD``).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState, generate

from reasonbench.analysis.gold import GOLD_COLUMNS
from reasonbench.integrations.common import (
    DEFAULT_SPLIT,
    TaskSpec,
    harness_record,
    observations,
    prompt_of,
    provenance,
    ratio,
    task_rows,
)
from reasonbench.targets import get_target

__all__ = ["rates", "reasonbench", "reasonbench_scorer"]

HERE = Path(__file__).resolve().parent


def resolve(data_dir: str) -> Path:
    """``data_dir`` as the user meant it (see the module docstring)."""
    path = Path(data_dir).expanduser()
    if path.is_absolute():
        return path
    started = os.environ.get("PWD") if Path.cwd().resolve() == HERE else None
    return (Path(started) if started else Path.cwd()) / path


def _input(prompt: str, spec: TaskSpec) -> list[ChatMessage]:
    messages: list[ChatMessage] = []
    if spec.instruction:
        from reasonbench.judges.instructions import instruction

        messages.append(ChatMessageSystem(content=instruction(spec.target)))
    messages.append(ChatMessageUser(content=prompt_of(prompt)))
    return messages


@metric
def rates() -> Metric:
    """Every metric of the scorer as ``analyze`` rates it: Σ numerator / Σ denominator."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        seen = [s.score.metadata["observations"] for s in scores if s.score.metadata]
        names = list(seen[0]) if seen else []
        return {name: ratio(o[name] for o in seen) for name in names}

    return compute


@scorer(metrics=[rates()])
def reasonbench_scorer(target: str, trim: bool = True) -> Scorer:
    """The frozen strict parser of ``target`` and every metric that applies to it."""
    answers_in = target  # the inner function's ``target`` is inspect's (the gold answer)

    async def score(state: TaskState, target: Target) -> Score:
        raw = state.output.completion
        record = harness_record(state.metadata, raw, answers_in, trim, "inspect", 0)
        seen = observations(state.metadata, record)
        return Score(
            value={n: math.nan if o is None else o[0] / o[1] for n, o in seen.items()},
            answer=raw,
            explanation="parsed" if record.parse_ok else "the frozen parser rejected it",
            metadata={"parse_ok": record.parse_ok, "observations": seen},
        )

    return score


@task
def reasonbench(
    target: str = "direct_receipt",
    split: str = DEFAULT_SPLIT,
    data_dir: str = "data/reasonbench",
    instruction: bool = False,
    trim: bool = True,
) -> Task:
    """ReasonBench's ``target`` on ``split`` of the build in ``data_dir`` (docs/integrations.md).

    ``instruction``: the target's task instruction as a system message (for zero-shot models);
    ``trim``: the parser reads the completion without a leading reasoning block and cut to the
    target's lines, as ``reasonbench evaluate`` reads its judges (false: the whole completion).
    """
    spec = TaskSpec(resolve(data_dir), split, target, bool(trim), bool(instruction))
    samples = [
        Sample(
            input=_input(row["prompt"], spec),
            target=row["answer"],
            id=row["id"],
            metadata={k: row[k] for k in GOLD_COLUMNS},
        )
        for row in task_rows(spec)
    ]
    settings: dict[str, Any] = {"split": split, "target": target, "trim": spec.trim,
                                "instruction": spec.instruction}  # fmt: skip
    return Task(
        dataset=MemoryDataset(samples, name=f"reasonbench-{split}"),
        solver=generate(),
        scorer=reasonbench_scorer(target, spec.trim),
        config=GenerateConfig(max_tokens=get_target(target).max_new_tokens, temperature=0.0),
        metadata={"reasonbench": {**provenance(spec.data_dir), **settings}},
        name="reasonbench",
    )
