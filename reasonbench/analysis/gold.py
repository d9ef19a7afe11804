"""Gold labels of a generated benchmark, indexed by example id, for scoring predictions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

    @property
    def subgroup_ambiguity(self) -> str:
        """``stable`` (no change: no receipt to be ambiguous about), ``ambiguous`` (a change with
        several minimal sets) or ``unambiguous`` (a change with exactly one)."""
        if self.receipt.min_size is None:
            return "stable"
        return "ambiguous" if self.receipt.ambiguous else "unambiguous"


GOLD_COLUMNS = (
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
)
"""The split columns a :class:`Gold` is built from."""


def gold_from_row(row: Mapping[str, Any]) -> Gold:
    """One example's gold from its benchmark row (at least :data:`GOLD_COLUMNS`)."""
    cube = Cube.from_cells(json.loads(row["cube"]))
    sets = family_masks(json.loads(row["receipt"]), cube.sources)
    receipt = Receipt(cube.sources, row["old_verdict"], row["new_verdict"], sets)
    return Gold(
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


def load_gold(data_dir: Path, splits: tuple[str, ...] | None = None) -> dict[str, Gold]:
    """example id → gold, from ``<split>.parquet`` files (and ``cardinality/`` if present)."""
    out: dict[str, Gold] = {}
    for split in split_names(data_dir):
        if splits is not None and split not in splits:
            continue
        for row in read_split(data_dir, split, GOLD_COLUMNS):
            out[row["id"]] = gold_from_row(row)
    return out


def split_ids(gold: dict[str, Gold]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for g in gold.values():
        out.setdefault(g.split, []).append(g.example_id)
    return out
