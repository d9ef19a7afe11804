"""What an instruction-following judge sees: the task instruction, ``num_fewshot`` solved
examples from ``train``, then the benchmark prompt — as chat messages or as plain text.

Both the local zero-shot judge (:mod:`reasonbench.judges.hf`, which applies the tokenizer's chat
template) and the served judge (:mod:`reasonbench.judges.served`, whose server applies it) build
their inputs here, so a model answers the same text wherever it runs.

The examples are the same for every prompt of a run (one fixed prefix) and drawn
deterministically: the ``train`` rows ranked by sha256 of ``"<seed>:<id>"``, taken round-robin
over the strata in name order so each stratum's format is shown; the answer is the row's gold
serialization of the judge's target (``target_<target>``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from reasonbench.judges.base import JudgeError, check_target
from reasonbench.judges.instructions import instruction

__all__ = ["Example", "Prompter", "fewshot_examples"]


@dataclass(frozen=True)
class Example:
    example_id: str
    prompt: str
    answer: str


def fewshot_examples(
    data_dir: Path, target: str, k: int, seed: int = 0, split: str = "train"
) -> list[Example]:
    """``k`` solved examples of ``split`` (see the module docstring for the draw)."""
    if k <= 0:
        return []
    path = Path(data_dir) / f"{split}.parquet"
    if not path.is_file():
        raise JudgeError(f"num_fewshot={k} needs the {split} split: {path} not found")
    column = f"target_{check_target(target)}"
    rows = pq.read_table(path, columns=["id", "stratum", "prompt", column]).to_pylist()
    ranked: dict[str, list[Example]] = {}
    for row in sorted(rows, key=lambda r: hashlib.sha256(f"{seed}:{r['id']}".encode()).digest()):
        ranked.setdefault(row["stratum"], []).append(Example(row["id"], row["prompt"], row[column]))
    strata, depth = sorted(ranked), 0
    picked: list[Example] = []
    while len(picked) < k and any(depth < len(ranked[s]) for s in strata):
        picked += [ranked[s][depth] for s in strata if depth < len(ranked[s])]
        depth += 1
    picked = picked[:k]
    if len(picked) < k:
        raise JudgeError(f"num_fewshot={k}, but {path} has only {len(picked)} rows")
    return picked


@dataclass(frozen=True)
class Prompter:
    """Renders benchmark prompts for one target with a fixed set of examples."""

    target: str
    examples: tuple[Example, ...] = ()
    system: bool = True  # chat: the instruction as a system message (else in the first user turn)

    @property
    def task(self) -> str:
        return instruction(self.target)

    def messages(self, prompt: str) -> list[dict[str, str]]:
        turns: list[dict[str, str]] = []
        for ex in self.examples:
            turns += [
                {"role": "user", "content": ex.prompt},
                {"role": "assistant", "content": ex.answer},
            ]
        turns.append({"role": "user", "content": prompt})
        if self.system:
            return [{"role": "system", "content": self.task}, *turns]
        first = turns[0]
        return [{"role": "user", "content": f"{self.task}\n\n{first['content']}"}, *turns[1:]]

    def text(self, prompt: str) -> str:
        shots = "".join(f"{ex.prompt}\n\nAnswer:\n{ex.answer}\n\n" for ex in self.examples)
        return f"{self.task}\n\n{shots}{prompt}\n\nAnswer:\n"

    def example_ids(self) -> Sequence[str]:
        return [ex.example_id for ex in self.examples]
