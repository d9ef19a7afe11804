"""Synthetic prediction records from a benchmark's gold: each answer is right with a chosen
probability and otherwise wrong in a target-appropriate way (a parse failure, a wrong receipt,
a wrong cell, a wrong verdict), with a confidence that is higher when right."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from reasonbench.analysis.gold import Gold, load_gold
from reasonbench.analysis.validate import label_sets
from reasonbench.core import Answer, Cube
from reasonbench.predictions import JsonlWriter, PredictionRecord
from reasonbench.predictions.answers import answer_record
from reasonbench.targets import ParseFailure, get_target

Accuracy = Callable[[Gold, int], float]  # (gold, seed) -> probability the answer is right


def _wrong(gold: Gold, target: str, rng: random.Random, labels: list[str]) -> Answer:
    if target == "cube":
        cells = list(gold.cube.verdicts)
        m = rng.randrange(len(cells))
        cells[m] = rng.choice([v for v in labels if v != cells[m]] or cells[m : m + 1])
        return Answer.of_cube(Cube(gold.cube.sources, tuple(cells)))
    if target == "direct_verdict":
        return Answer(None, rng.choice([v for v in labels if v != gold.receipt.new]), None)
    receipt = gold.receipt
    wrong_sets = (7,) if receipt.sets != (7,) else (1,)
    if rng.random() < 0.5:
        return Answer(receipt.old, receipt.new, wrong_sets)
    return Answer(receipt.old, rng.choice([v for v in labels if v != receipt.new]), wrong_sets)


def answer(gold: Gold, target: str, right: bool, rng: random.Random, labels: list[str]) -> Answer:
    if not right:
        return _wrong(gold, target, rng, labels)
    if target == "cube":
        return Answer.of_cube(gold.cube)
    if target == "direct_verdict":
        return Answer(None, gold.receipt.new, None)
    return Answer.of_receipt(gold.receipt)


def records(
    gold: Mapping[str, Gold],
    method: str,
    target: str,
    seeds: Iterable[int],
    accuracy: Accuracy,
    splits: Iterable[str] | None = None,
    parse_failures: float = 0.0,
    source: str = "seq_prob",
) -> list[PredictionRecord]:
    wanted = None if splits is None else set(splits)
    labels = {s: sorted(v) for s, v in label_sets(gold).items()}
    out = []
    for seed in seeds:
        rng = random.Random(f"{method}:{seed}")
        for g in sorted(gold.values(), key=lambda g: g.example_id):
            if wanted is not None and g.split not in wanted:
                continue
            if rng.random() < parse_failures:
                parsed: Answer | ParseFailure = ParseFailure(target, "synthetic failure")
                confidence = None
            else:
                right = rng.random() < accuracy(g, seed)
                parsed = answer(g, target, right, rng, labels[g.stratum])
                confidence = min(1.0, max(0.0, (0.7 if right else 0.4) + rng.uniform(-0.3, 0.3)))
            out.append(
                answer_record(
                    example_id=g.example_id,
                    method=method,
                    seed=seed,
                    split=g.split,
                    target=target,
                    raw_output=get_target(target).name,
                    answer=parsed,
                    confidence=confidence,
                    confidence_source=source,
                )
            )
    return out


def write(path: Path, rows: list[PredictionRecord]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with JsonlWriter(path) as writer:
        for r in rows:
            writer.write(r)
    return path


def constant(p: float) -> Accuracy:
    return lambda gold, seed: p


def gold_of(data_dir: Path) -> dict[str, Gold]:
    return load_gold(data_dir)


__all__ = ["answer", "constant", "gold_of", "records", "write"]
