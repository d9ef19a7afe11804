"""Structural audit checks over whole splits: leakage, overlap, controls, shifts, quotas."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reasonbench.assembly.spec import SPLITS
from reasonbench.controls import CONTROL_KINDS
from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import family_masks

Records = Mapping[str, Sequence[Mapping[str, Any]]]


def unit_leakage(splits: Records) -> list[str]:
    """A unit in more than one main split, or a control whose unit is not a locked unit."""
    homes: dict[str, set[str]] = defaultdict(set)
    for split in SPLITS:
        for r in splits.get(split, ()):
            homes[r["unit_id"]].add(split)
    problems = [
        f"unit {u} appears in splits {sorted(s)}" for u, s in sorted(homes.items()) if len(s) > 1
    ]
    locked = {r["unit_id"] for r in splits.get("test_locked", ())}
    stray = sorted({r["unit_id"] for r in splits.get("controls_locked", ())} - locked)
    problems += [f"control unit {u} is not a locked unit" for u in stray]
    return problems


def prompt_overlap(splits: Records) -> list[str]:
    """Identical prompts in two different splits (controls count with the locked split)."""
    owner: dict[str, str] = {}
    problems = []
    for split, records in splits.items():
        home = "test_locked" if split == "controls_locked" else split
        for r in records:
            other = owner.setdefault(r["prompt"], home)
            if other != home:
                problems.append(f"{r['id']}: prompt also appears in split {other}")
    return problems


def _said(record: Mapping[str, Any]) -> Answer:
    cube = Cube.from_cells(json.loads(record["cube"]))
    return Answer(
        record["old_verdict"],
        record["new_verdict"],
        family_masks(json.loads(record["receipt"])),
        cube,
    )


Applicable = Callable[[str, str], bool]
"""(control kind, stratum name) -> whether that stratum builds that control."""


def _every(kind: str, stratum: str) -> bool:
    return True


def control_relations(
    splits: Records, kinds: Sequence[str], applicable: Applicable = _every
) -> tuple[int, list[str]]:
    """Every locked example has one control of each kind its stratum builds, and gold satisfies
    each relation."""
    parents = {r["id"]: r for r in splits.get("test_locked", ())}
    seen: Counter[tuple[str, str]] = Counter()
    problems = []
    checked = 0
    for r in splits.get("controls_locked", ()):
        parent = parents.get(r["parent_id"])
        if parent is None:
            problems.append(f"{r['id']}: parent {r['parent_id']} is not a locked example")
            continue
        seen[(parent["id"], r["control"])] += 1
        if r["control"] not in CONTROL_KINDS:
            problems.append(f"{r['id']}: {CONTROL_KINDS.unknown(r['control'])}")
            continue
        control = CONTROL_KINDS.get(r["control"])
        gold_parent = _said(parent)
        assert gold_parent.cube is not None  # _said always reads the stored cube
        gold_control = _said(r)
        if control.relation(gold_parent, gold_control, gold_parent.cube) is not True:
            problems.append(f"{r['id']}: gold violates the {r['control']} relation")
        assert gold_control.cube is not None
        if not all(control.cells(gold_parent.cube, gold_control.cube)):
            problems.append(f"{r['id']}: gold violates the {r['control']} cell relation")
        problems += control.audit(parent, r)
        checked += 1
    for pid, parent in parents.items():
        for kind in kinds:
            expected = int(applicable(kind, parent["stratum"]))
            if seen[(pid, kind)] != expected:
                problems.append(f"{pid}: {seen[(pid, kind)]} {kind} controls (expected {expected})")
    return checked, problems


def shift_rules(splits: Records, config: Mapping[str, Any]) -> list[str]:
    """Held-out operators, families and depths appear only in their shift split."""
    shifts = config["shifts"]
    problems = []
    min_depth = shifts["depth"]["min_depth"]
    for split in SPLITS:
        for r in splits.get(split, ()):
            held_ops = set(shifts["held_out_operators"].get(r["stratum"]) or ())
            used = set(json.loads(r["operators"])) & held_ops
            if (split == "shift_operator") != bool(used):
                problems.append(f"{r['id']}: held-out operators {sorted(used)} in split {split}")
            held_family = shifts["held_out_family"].get(r["stratum"])
            if (split == "shift_linguistic") != (r["template_family"] == held_family):
                problems.append(
                    f"{r['id']}: template family {r['template_family']} in split {split}"
                )
            depth = r["proof_depth"]
            if depth is not None and (split == "shift_depth") != (depth >= min_depth):
                problems.append(f"{r['id']}: proof depth {depth} in split {split}")
    return problems


def quota_check(
    splits: Records, config: Mapping[str, Any], applicable: Applicable = _every
) -> list[str]:
    main = [r for s in SPLITS for r in splits.get(s, ())]
    problems = []
    for split in SPLITS:
        want = sum(a["cases"] for a in config["splits"][split].values())
        if len(splits.get(split, ())) != want:
            problems.append(f"{split}: {len(splits.get(split, ()))} examples, config says {want}")
    quotas = config["quotas"]
    changed = sum(bool(r["changed"]) for r in main)
    ambiguous = sum(bool(r["ambiguous"]) for r in main)
    if changed != quotas["changed"]:
        problems.append(f"{changed} changed cases, quota {quotas['changed']}")
    if ambiguous != quotas["ambiguous"]:
        problems.append(f"{ambiguous} ambiguous cases, quota {quotas['ambiguous']}")
    sizes = {r["min_receipt_size"] for r in main if r["changed"]}
    for size in quotas["min_sizes"]:
        if size not in sizes:
            problems.append(f"no changed case with minimum receipt size {size}")
    controls = len(splits.get("controls_locked", ()))
    expected = sum(
        applicable(kind, r["stratum"])
        for r in splits.get("test_locked", ())
        for kind in config["controls"]["kinds"]
    )
    if controls != expected:
        problems.append(f"{controls} controls, expected {expected}")
    return problems
