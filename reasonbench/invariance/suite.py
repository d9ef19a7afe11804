"""The stress suite: organizational benchmark items, each with its certified rewrites and a
threshold-shift pair, plus the execution-defined clear/ambiguous split.

Items are read back from a generated benchmark (Parquet), so the suite is tied to one data
manifest. Every item is re-rendered first: the base wording must reproduce the benchmark prompt
byte for byte and re-execution the stored cube, otherwise the suite refuses to build. A rewrite
whose prompt equals the base prompt (e.g. an exception move on a rule without exceptions) tests
nothing and is dropped, counted per variant.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.core.cube import Cube, execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.invariance.ambiguity import ambiguity_reasons
from reasonbench.invariance.thresholds import Shift, choose_shift
from reasonbench.io import SplitError, read_split
from reasonbench.progress import progress as iterate
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR
from reasonbench.strata.organizational.rewrites.certify import Certifier
from reasonbench.strata.organizational.rewrites.render import rewrite_prompt
from reasonbench.strata.organizational.rewrites.wording import RewriteSet, load_rewrites
from reasonbench.strata.organizational.schema import Clause

__all__ = ["Pair", "Rewrite", "StressItem", "StressSuite", "SuiteError", "build_suite"]

COLUMNS = ["id", "split", "unit_id", "stratum", "old_state", "new_state", "prompt", "cube",
           "template_family", "source_order", "control"]  # fmt: skip
STRATUM = "organizational"


class SuiteError(ValueError):
    """The benchmark cannot be stress-tested as stored (missing split, renderer drift, ...)."""


@dataclass(frozen=True)
class Rewrite:
    variant: str
    transform: str
    prompt: str


@dataclass(frozen=True)
class Pair:
    shift: Shift
    expected: str  # "to_lax" or "none", by execution of the revised verdict
    gold_strict: str
    gold_lax: str
    strict_prompt: str
    lax_prompt: str


@dataclass(frozen=True)
class StressItem:
    item_id: str
    unit_id: str
    split: str
    family: str
    gold_new: str
    reasons: tuple[str, ...]  # why the item is ambiguous; empty = clear
    base_prompt: str
    rewrites: tuple[Rewrite, ...]
    pair: Pair | None

    @property
    def clear(self) -> bool:
        return not self.reasons


@dataclass(frozen=True)
class StressSuite:
    items: tuple[StressItem, ...]
    unchanged: dict[str, int] = field(default_factory=dict)  # variant -> rewrites equal to base
    without_pair: int = 0

    def prompts(self) -> list[str]:
        """Every distinct prompt the suite needs judged, in a fixed order."""
        out: dict[str, None] = {}
        for item in self.items:
            out[item.base_prompt] = None
            out.update((r.prompt, None) for r in item.rewrites)
            if item.pair is not None:
                out[item.pair.strict_prompt] = None
                out[item.pair.lax_prompt] = None
        return list(out)

    def to_json(self) -> dict[str, Any]:
        def item(i: StressItem) -> dict[str, Any]:
            data = {k: v for k, v in vars(i).items() if k not in ("rewrites", "pair")}
            data["reasons"] = list(i.reasons)
            data["rewrites"] = [vars(r) for r in i.rewrites]
            data["pair"] = None
            if i.pair is not None:
                data["pair"] = {**vars(i.pair), "shift": i.pair.shift.to_json()}
            return data

        return {
            "items": [item(i) for i in self.items],
            "unchanged": dict(self.unchanged),
            "without_pair": self.without_pair,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StressSuite:
        def item(d: dict[str, Any]) -> StressItem:
            pair = d["pair"]
            return StressItem(
                **{k: v for k, v in d.items() if k not in ("reasons", "rewrites", "pair")},
                reasons=tuple(d["reasons"]),
                rewrites=tuple(Rewrite(**r) for r in d["rewrites"]),
                pair=None
                if pair is None
                else Pair(**{**pair, "shift": Shift.from_json(pair["shift"])}),
            )

        return cls(
            tuple(item(d) for d in data["items"]), dict(data["unchanged"]), data["without_pair"]
        )


def read_rows(data_dir: Path, splits: Sequence[str]) -> list[dict[str, Any]]:
    """Organizational, non-control rows of ``splits`` (controls add no independent units)."""
    rows = []
    for split in splits:
        try:
            split_rows = read_split(data_dir, split, COLUMNS)
        except SplitError as exc:
            raise SuiteError(str(exc)) from None
        for row in split_rows:
            if row["stratum"] == STRATUM and row["control"] is None:
                rows.append(row)
    return rows


def transition_of(stratum: OrganizationalStratum, row: dict[str, Any]) -> Transition:
    # The renderer puts case facts in schema order itself (stored states have sorted keys).
    old, new = (stratum.state_from_json(json.loads(row[key])) for key in ("old_state", "new_state"))
    return Transition(row["unit_id"], old, new, ())


class _Builder:
    def __init__(self, rewrites: RewriteSet, seed: int, margin: int) -> None:
        self.stratum = OrganizationalStratum()
        self.rewrites, self.seed, self.margin = rewrites, seed, margin
        self.certifiers: dict[tuple[str, str, str], Certifier] = {}
        self.unchanged: Counter[str] = Counter()

    def certifier(self, clause: Clause, variant: str, family: str) -> Certifier:
        key = (clause.unit_id, variant, family)
        if key not in self.certifiers:
            self.certifiers[key] = Certifier(clause, self.rewrites.wording(variant, family))
        return self.certifiers[key]

    def prompt(
        self, clause: Clause, t: Transition, gold: Cube, variant: str, row: dict[str, Any]
    ) -> str:
        family, order = row["template_family"], tuple(json.loads(row["source_order"]))
        certifier = self.certifier(clause, variant, family)
        certifier.certify(t, gold)  # raises CertificationError: never use an uncertified text
        return rewrite_prompt(clause, self.stratum.specs(clause), t, certifier.wording, order)

    def item(self, row: dict[str, Any]) -> StressItem:
        clause = self.stratum.clause(row["unit_id"])
        t = transition_of(self.stratum, row)
        gold = Cube.from_cells(json.loads(row["cube"]))
        if execute_cube(ADJUDICATOR, t.old, t.new) != gold:
            raise SuiteError(
                f"{row['id']}: re-executing the stored states does not give the stored cube"
            )
        family, order = row["template_family"], tuple(json.loads(row["source_order"]))
        base = rewrite_prompt(
            clause, self.stratum.specs(clause), t, self.rewrites.base(family), order
        )
        if base != row["prompt"]:
            raise SuiteError(f"{row['id']}: re-rendering does not reproduce the benchmark prompt")
        rewrites = []
        for variant in self.rewrites.certified():
            prompt = self.prompt(clause, t, gold, variant.name, row)
            if prompt == base:
                self.unchanged[variant.name] += 1
            else:
                rewrites.append(Rewrite(variant.name, variant.transform, prompt))
        return StressItem(
            item_id=row["id"],
            unit_id=row["unit_id"],
            split=row["split"],
            family=family,
            gold_new=gold.new,
            reasons=ambiguity_reasons(clause, t, receipt_of(gold), self.margin),
            base_prompt=base,
            rewrites=tuple(rewrites),
            pair=self.pair(clause, t, gold, row),
        )

    def pair(self, clause: Clause, t: Transition, gold: Cube, row: dict[str, Any]) -> Pair | None:
        chosen = choose_shift(clause, t, random.Random(f"{self.seed}:threshold:{row['id']}"))
        if chosen is None:
            return None
        shift, expected, lax = chosen
        lax_gold = execute_cube(ADJUDICATOR, lax.old, lax.new)
        return Pair(
            shift=shift,
            expected=expected,
            gold_strict=gold.new,
            gold_lax=lax_gold.new,
            strict_prompt=self.prompt(clause, t, gold, "strict", row),
            lax_prompt=self.prompt(clause, lax, lax_gold, "lax", row),
        )


def build_suite(
    data_dir: Path,
    splits: Sequence[str] = ("test_locked",),
    seed: int = 0,
    max_items: int | None = None,
    margin: int = 1,
    rewrites: RewriteSet | None = None,
    progress: bool = False,
) -> StressSuite:
    """The suite over the organizational items of ``splits`` (a seeded subset if ``max_items``);
    every rewrite is certified by execution, which takes a while on the whole locked split."""
    rows = sorted(read_rows(data_dir, splits), key=lambda r: r["id"])
    if not rows:
        raise SuiteError(f"no organizational items in splits {list(splits)} of {data_dir}")
    if max_items is not None and max_items < len(rows):
        rows = sorted(random.Random(f"{seed}:items").sample(rows, max_items), key=lambda r: r["id"])
    builder = _Builder(rewrites or load_rewrites(), seed, margin)
    items = tuple(builder.item(row) for row in iterate(rows, "judge-card suite", "items", progress))
    without = sum(i.pair is None for i in items)
    return StressSuite(items, dict(sorted(builder.unchanged.items())), without)
