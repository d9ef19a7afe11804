"""Training data variants, permutation augmentation and the data manifest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reasonbench.train.augment import AugmentError
from reasonbench.train.data import data_manifest, read_split, training_examples

PAPER = {"train_split": "train", "permutation": {"rate": 0.0}}
PERMAUG = {"train_split": "train", "permutation": {"rate": 0.5, "mode": "add"}}


def test_paper_and_cardinality_variants(small_bench: Path) -> None:
    train = training_examples(small_bench, "direct_receipt", PAPER, 0)
    rows = read_split(small_bench, "train", ["id", "target_direct_receipt"])
    assert [e.example_id for e in train] == [r["id"] for r in rows]
    assert [e.target for e in train] == [r["target_direct_receipt"] for r in rows]
    card = training_examples(small_bench, "cube", {"train_split": "cardinality_train"}, 0)
    assert card and all(e.example_id.startswith("card-train-") for e in card)
    with pytest.raises(ValueError, match="unknown target"):
        training_examples(small_bench, "verdict", PAPER, 0)


def test_permutation_augmentation(small_bench: Path) -> None:
    base = {e.example_id: e for e in training_examples(small_bench, "cube", PAPER, 0)}
    augmented = training_examples(small_bench, "cube", PERMAUG, 0)
    extra = [e for e in augmented if e.example_id.endswith("-permaug")]
    assert 0.35 * len(base) < len(extra) < 0.65 * len(base)
    for e in extra:
        original = base[e.example_id.removesuffix("-permaug")]
        assert e.target == original.target  # sources are named, not positional
        assert e.prompt != original.prompt
        # the same lines, the source sections in another order
        assert sorted(e.prompt.splitlines()) == sorted(original.prompt.splitlines())
    assert augmented == training_examples(small_bench, "cube", PERMAUG, 0)  # deterministic
    other_seed = training_examples(small_bench, "cube", PERMAUG, 1)
    assert {e.example_id for e in other_seed} != {e.example_id for e in augmented}
    replace = {**PERMAUG, "permutation": {"rate": 0.5, "mode": "replace"}}
    replaced = training_examples(small_bench, "cube", replace, 0)
    assert len(replaced) == len(base)


def test_manifest_names_the_data(small_bench: Path) -> None:
    examples = training_examples(small_bench, "cube", PAPER, 0)
    manifest = data_manifest(small_bench, examples, PAPER | {"train_split": "train"}, "cube")
    assert manifest["examples"] == len(examples) and manifest["benchmark"] == "small"
    assert manifest == data_manifest(small_bench, examples, PAPER, "cube")
    other = data_manifest(small_bench, examples[::-1], PAPER, "cube")
    assert other["sha256"] != manifest["sha256"]  # order is part of what a run saw


def test_augmentation_refuses_unfaithful_rendering(small_bench: Path, tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(small_bench, bench)
    table = pq.read_table(bench / "train.parquet").to_pylist()
    for row in table:
        row["prompt"] = row["prompt"] + " (edited)"
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(table), bench / "train.parquet")
    with pytest.raises(AugmentError, match="does not reproduce the stored prompt"):
        training_examples(bench, "cube", {**PERMAUG, "permutation": {"rate": 1.0}}, 0)
    assert json.loads((bench / "MANIFEST.json").read_text())["config"]["name"] == "small"
