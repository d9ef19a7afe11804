"""Training data for one run: the split of a data variant, the target column, augmentation.

Variants (``conf/data``): ``paper`` trains on ``train``; ``cardinality`` on the post-freeze
``cardinality_train`` (single-source changes); ``permaug`` adds permuted re-renderings of a share
(``permutation.rate``) of the training examples; ``worlds`` adds the ``train`` split of another
build (``extra``: fresh logical worlds, ``benchmark=worlds``), its ids prefixed with its name. The data manifest hash names exactly which
(prompt, target) pairs a run saw, in order, and the benchmark manifest they came from.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.io import (
    MANIFEST,
    data_identity,
    manifest_hash,
    read_manifest,
    read_split,
    split_columns,
)
from reasonbench.targets import TARGETS, gold_text
from reasonbench.targets.serialize import GOLD_COLUMNS
from reasonbench.train.augment import permuted_prompt

ROW_COLUMNS = [
    "id",
    "unit_id",
    "stratum",
    "prompt",
    "old_state",
    "new_state",
    "context",
    "operators",
    "template_family",
    "source_order",
]


@dataclass(frozen=True)
class TrainExample:
    example_id: str  # augmented copies get ``<id>-permaug``
    prompt: str
    target: str


def training_examples(
    data_dir: Path, target: str, variant: Mapping[str, Any], seed: int
) -> list[TrainExample]:
    if target not in TARGETS:
        raise ValueError(TARGETS.unknown(target))
    split = str(variant["train_split"])
    stored = f"target_{target}" in split_columns(data_dir, split)
    gold = [f"target_{target}"] if stored else list(GOLD_COLUMNS)
    rows = read_split(data_dir, split, [*ROW_COLUMNS, *gold])
    out = [TrainExample(r["id"], r["prompt"], gold_text(target, r)) for r in rows]
    out += extra_examples(variant, target)
    perm = variant.get("permutation") or {}
    rate = float(perm.get("rate", 0.0))
    if rate <= 0.0:
        return out
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"data.permutation.rate must lie in (0, 1], got {rate}")
    from reasonbench.strata.registry import load_strata

    strata = load_strata(sorted({r["stratum"] for r in rows}))
    augmented = []
    for row in rows:
        # one RNG per example: which examples are augmented never depends on row order
        rng = random.Random(f"{seed}:permaug:{row['id']}")
        if rng.random() < rate:
            prompt = permuted_prompt(strata[row["stratum"]], row, rng)
            augmented.append(TrainExample(f"{row['id']}-permaug", prompt, row[f"target_{target}"]))
    if perm.get("mode", "add") == "replace":
        replaced = {e.example_id.removesuffix("-permaug"): e for e in augmented}
        return [replaced.get(e.example_id, e) for e in out]
    return out + augmented


def extra_examples(variant: Mapping[str, Any], target: str) -> list[TrainExample]:
    """The examples of ``variant.extra``: each a (``data_dir``, ``split``) of another build, its
    ids prefixed ``<build name>:`` (two builds may number their units alike)."""
    out: list[TrainExample] = []
    for entry in variant.get("extra") or ():
        extra_dir, split = Path(str(entry["data_dir"])), str(entry["split"])
        name = data_identity(read_manifest(extra_dir)).benchmark or extra_dir.name
        stored = f"target_{target}" in split_columns(extra_dir, split)
        gold = [f"target_{target}"] if stored else list(GOLD_COLUMNS)
        for r in read_split(extra_dir, split, ["id", "prompt", *gold]):
            out.append(TrainExample(f"{name}:{r['id']}", r["prompt"], gold_text(target, r)))
    return out


def data_manifest(
    data_dir: Path, examples: Sequence[TrainExample], variant: Mapping[str, Any], target: str
) -> dict[str, Any]:
    digest = hashlib.sha256()
    for e in examples:
        for part in (e.example_id, e.prompt, e.target):
            digest.update(hashlib.sha256(part.encode()).digest())
    bench = data_identity(read_manifest(data_dir)) if (data_dir / MANIFEST).is_file() else None
    extra = [
        {
            "data_dir": str(e["data_dir"]),
            "split": str(e["split"]),
            "benchmark_manifest_sha256": manifest_hash(read_manifest(Path(str(e["data_dir"])))),
        }
        for e in variant.get("extra") or ()
    ]
    return {
        "sha256": digest.hexdigest(),
        "benchmark": bench.benchmark if bench else None,
        "benchmark_manifest_sha256": bench.manifest_sha256 if bench else None,
        "train_split": variant["train_split"],
        "target": target,
        "examples": len(examples),
        "augmented": sum(e.example_id.endswith("-permaug") for e in examples),
        **({"extra": extra} if extra else {}),
    }
