"""Paired consistency: one relation for every target, parse failures violate it, pooled is the
weighted combination of the strata, the cell relation is a separate cube-only diagnostic (and the
audit's check of gold)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.consistency import paired_consistency
from reasonbench.audit.checks import control_relations
from reasonbench.controls import CONTROL_KINDS, identical_cells, inverse_cells, inverse_cube
from reasonbench.core import GNA, Answer, Cube, receipt_of
from tests.analysis.helpers import CHANGED, gold, scored

LABELS = ("approve", "deny", "refer")
cubes = st.lists(st.sampled_from(LABELS), min_size=8, max_size=8).map(lambda v: Cube(GNA, tuple(v)))


def pair(kind: str, parent_said: Answer | None, control_said: Answer | None, target: str = "direct_receipt",
         cells: tuple[str, ...] = CHANGED, stratum: str = "organizational", i: int = 0):  # type: ignore[no-untyped-def]  # fmt: skip
    parent = gold(f"p{i}", cells, stratum=stratum)
    control_cells = inverse_cube(parent.cube).verdicts if kind == "inverse" else cells
    control = gold(f"p{i}-{kind}", control_cells, split="controls_locked", stratum=stratum,
                   control=kind, parent=f"p{i}")  # fmt: skip
    return scored(parent, parent_said, target), scored(control, control_said, target)


def check(pairs):  # type: ignore[no-untyped-def]
    parents = {p.gold.example_id: p for p, _ in pairs}
    return paired_consistency(parents, [c for _, c in pairs])


def test_cube_is_held_to_the_same_relation_as_direct_receipt() -> None:
    cube = Cube(GNA, CHANGED)
    # same endpoints and receipt, one irrelevant cell different: consistent for the relation...
    other = Cube(GNA, ("refer", *CHANGED[1:]))
    other = Cube(GNA, (CHANGED[0], CHANGED[1], "refer", *CHANGED[3:]))
    assert receipt_of(other).sets == receipt_of(cube).sets
    result = check([pair("permutation", Answer.of_cube(cube), Answer.of_cube(other), "cube")])
    assert result.pooled["permutation"].consistency == 1.0
    # ...and the cell diagnostic sees the difference
    assert result.cells["permutation"].all_cells == 0.0
    assert result.cells["permutation"].cells == 7 / 8


def test_parse_failure_on_a_checkable_pair_is_a_violation() -> None:
    receipt = receipt_of(Cube(GNA, CHANGED))
    said = Answer.of_receipt(receipt)
    result = check([pair("permutation", said, None), pair("distractor", None, said)])
    for kind in ("permutation", "distractor"):
        rate = result.pooled[kind]
        assert (rate.checkable, rate.consistent, rate.consistency) == (1, 0, 0.0)
        assert rate.error_lower_bound == 0.5


def test_verdict_only_inverse_is_not_checkable_even_when_unparsed() -> None:
    result = check(
        [
            pair("inverse", None, None, "direct_verdict"),
            pair("permutation", None, None, "direct_verdict", i=1),
        ]
    )
    assert result.pooled["inverse"].checkable == 0 and result.pooled["inverse"].consistency is None
    assert (
        result.pooled["permutation"].checkable == 1
        and result.pooled["permutation"].consistency == 0.0
    )
    assert result.cells == {}  # not a cube target


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["organizational", "logical", "agentic"]),
                  st.sampled_from(["inverse", "permutation", "distractor"]), st.booleans(), st.booleans()),
        min_size=1, max_size=30,
    )
)  # fmt: skip
def test_pooled_is_the_checkable_weighted_combination_of_strata(draws) -> None:  # type: ignore[no-untyped-def]
    pairs = []
    for i, (stratum, kind, right, parsed) in enumerate(draws):
        cube = Cube(GNA, CHANGED)
        parent = Answer.of_receipt(receipt_of(cube))
        truth = receipt_of(inverse_cube(cube)) if kind == "inverse" else receipt_of(cube)
        control = Answer.of_receipt(truth) if right else Answer(truth.old, truth.old, ())
        pairs.append(pair(kind, parent, control if parsed else None, stratum=stratum, i=i))
    result = check(pairs)
    for kind, pooled in result.pooled.items():
        parts = [by_kind[kind] for by_kind in result.strata.values() if kind in by_kind]
        assert pooled.pairs == sum(p.pairs for p in parts)
        assert pooled.checkable == sum(p.checkable for p in parts)
        weighted = sum(p.checkable * (p.consistency or 0.0) for p in parts) / pooled.checkable
        assert abs(pooled.consistency - weighted) < 1e-12  # type: ignore[operator]
        expected = sum(1 for s, k, right, parsed in draws if k == kind and right and parsed)
        assert pooled.consistent == expected


@settings(max_examples=200, deadline=None)
@given(cubes)
def test_gold_satisfies_every_cell_relation(cube: Cube) -> None:
    assert all(inverse_cells(cube, inverse_cube(cube)))
    assert all(identical_cells(cube, cube))
    for name in CONTROL_KINDS:
        kind = CONTROL_KINDS.get(name)
        control = inverse_cube(cube) if name == "inverse" else cube
        assert all(kind.cells(cube, control))
        wrong = Cube(GNA, tuple("refer" if v != "refer" else "deny" for v in control.verdicts))
        assert not any(kind.cells(cube, wrong))


def _stored(id_: str, cube: Cube, **kw: object) -> dict[str, object]:
    r = receipt_of(cube)
    return {"id": id_, "stratum": "organizational", "cube": json.dumps(cube.cells()), "old_verdict": r.old,
            "new_verdict": r.new, "receipt": json.dumps(r.family()), "old_state": "o", "new_state": "n",
            "source_order": ["G", "N", "A"], **kw}  # fmt: skip


def test_audit_checks_the_cell_relation_on_gold() -> None:
    cube = Cube(GNA, CHANGED)
    # the stored distractor keeps endpoints and receipt but changes an irrelevant cell
    changed_cell = Cube(GNA, (CHANGED[0], CHANGED[1], "refer", *CHANGED[3:]))
    splits = {
        "test_locked": [_stored("p", cube)],
        "controls_locked": [_stored("p-dis", changed_cell, parent_id="p", control="distractor")],
    }
    checked, problems = control_relations(splits, ["distractor"])
    assert checked == 1 and problems == ["p-dis: gold violates the distractor cell relation"]
    splits["controls_locked"] = [_stored("p-dis", cube, parent_id="p", control="distractor")]
    assert control_relations(splits, ["distractor"]) == (1, [])
