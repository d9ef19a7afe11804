"""Gold labels of a generated benchmark, indexed by example id, for scoring predictions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, family_masks
from reasonbench.io import read_split, split_names


@dataclass(frozen=True)
class Gold:
    example_id: str
    split: str
    unit_id: str
    stratum: str
    cube: Cube
    receipt: Receipt
    control: str | None
    parent_id: str | None
    proof_depth: int | None

    @property
    def subgroup_size(self) -> str:
        return "stable" if self.receipt.min_size is None else str(self.receipt.min_size)


def load_gold(data_dir: Path, splits: tuple[str, ...] | None = None) -> dict[str, Gold]:
    """example id → gold, from ``<split>.parquet`` files (and ``cardinality/`` if present)."""
    present = split_names(data_dir)
    out: dict[str, Gold] = {}
    columns = [
        "id",
        "split",
        "unit_id",
        "stratum",
        "cube",
        "old_verdict",
        "new_verdict",
        "receipt",
        "control",
        "parent_id",
        "proof_depth",
    ]
    for split in present:
        if splits is not None and split not in splits:
            continue
        for row in read_split(data_dir, split, columns):
            cube = Cube.from_cells(json.loads(row["cube"]))
            sets = family_masks(json.loads(row["receipt"]), cube.sources)
            receipt = Receipt(cube.sources, row["old_verdict"], row["new_verdict"], sets)
            out[row["id"]] = Gold(
                row["id"],
                row["split"],
                row["unit_id"],
                row["stratum"],
                cube,
                receipt,
                row["control"],
                row["parent_id"],
                row["proof_depth"],
            )
    return out


def split_ids(gold: dict[str, Gold]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for g in gold.values():
        out.setdefault(g.split, []).append(g.example_id)
    return out
