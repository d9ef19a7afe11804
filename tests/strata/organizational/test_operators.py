"""Operators: typed by one source, change only it, stay inside the schema; no-ops are inert."""

from __future__ import annotations

import random

import pytest

from reasonbench.core import changed_sources, execute_cube, mask_from_names, receipt_of
from reasonbench.strata.organizational import OPERATORS, Grounds, Norm, OrganizationalStratum, Scope
from reasonbench.strata.organizational.sampling import sample_base

from .conftest import SUBSETS

EXPECTED = {
    "G": {
        "g_cross_threshold", "g_cross_band", "g_approach_threshold", "g_shift_value",
        "g_toggle_document", "g_change_category", "g_reassign_case", "g_within_threshold",
        "g_touch_unreferenced",
    },
    "N": {
        "n_tighten_threshold", "n_relax_threshold", "n_add_exception", "n_remove_exception",
        "n_flip_default", "n_add_requirement", "n_drop_requirement", "n_shift_threshold_within",
        "n_add_inapplicable_exception",
    },
    "A": {
        "a_widen_scope", "a_narrow_scope", "a_raise_band", "a_lower_band",
        "a_transfer_jurisdiction", "a_adjust_elsewhere",
    },
}  # fmt: skip
NOOPS = {
    "g_within_threshold", "g_touch_unreferenced", "n_shift_threshold_within",
    "n_add_inapplicable_exception", "a_adjust_elsewhere",
}  # fmt: skip
TYPES = {"G": Grounds, "N": Norm, "A": Scope}


def test_registry(stratum: OrganizationalStratum) -> None:
    assert stratum.operators is OPERATORS
    for source, names in EXPECTED.items():
        assert {n for n, op in OPERATORS.items() if op.source == source} == names
    assert {n for n, op in OPERATORS.items() if op.noop} == NOOPS
    assert all(op.name == name and op.description for name, op in OPERATORS.items())


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_operator_changes_only_its_source(stratum: OrganizationalStratum, name: str) -> None:
    op = OPERATORS[name]
    applied = 0
    for clause in stratum.units(0):
        rng = random.Random(f"{name}:{clause.unit_id}")
        for _ in range(6):
            state = sample_base(clause, rng)
            component = op.apply(clause, state, rng)
            if component is None:
                continue
            applied += 1
            assert isinstance(component, TYPES[op.source])
            new = state.replace(**{op.source: component})
            assert changed_sources(state, new) in (0, mask_from_names([op.source], state.sources))
            grounds, norm, scope = new.components
            clause.check_grounds(grounds)  # every schema field keeps a legal value
            assert grounds.names() == tuple(f.name for f in clause.fields)  # nothing removed
            mentioned = set(norm.fields()) | set(scope.fields())
            assert mentioned <= set(clause.by_name)  # only schema fields are mentioned
    assert applied > 0


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_single_operator_transitions(stratum: OrganizationalStratum, name: str) -> None:
    op = OPERATORS[name]
    judge = stratum.adjudicator({})
    seen = 0
    for clause in stratum.units(0)[::3]:
        rng = random.Random(f"single:{name}:{clause.unit_id}")
        for _ in range(4):
            transition = stratum.sample_transition(clause, rng, (op.source,), [name])
            if transition is None:
                continue
            seen += 1
            assert transition.operators == (name,)
            assert changed_sources(transition.old, transition.new) == mask_from_names(
                [op.source], ("G", "N", "A")
            )
            if op.noop:  # invariance case: a source changes, no cube cell does
                cube = execute_cube(judge, transition.old, transition.new)
                assert len(set(cube.verdicts)) == 1
    assert seen > 0


def test_compositions_change_exactly_the_requested_sources(stratum: OrganizationalStratum) -> None:
    judge = stratum.adjudicator({})
    for clause in stratum.units(0)[::4]:
        rng = random.Random(f"compose:{clause.unit_id}")
        for sources in SUBSETS:
            transition = stratum.sample_transition(clause, rng, sources)
            assert transition is not None
            assert changed_sources(transition.old, transition.new) == mask_from_names(
                list(sources), ("G", "N", "A")
            )
            assert [OPERATORS[n].source for n in transition.operators] == [
                s for s in "GNA" if s in sources
            ]
            cube = execute_cube(judge, transition.old, transition.new)
            for name in transition.operators:
                if OPERATORS[name].noop:  # a no-op source never changes any cell
                    bit = 1 << "GNA".index(OPERATORS[name].source)
                    assert all(cube[m] == cube[m | bit] for m in range(8))
            receipt_of(cube)


def test_operator_shift_restricts_the_pool(stratum: OrganizationalStratum) -> None:
    allowed = ["g_cross_threshold", "n_flip_default", "a_narrow_scope"]
    rng = random.Random(7)
    for clause in stratum.units(0)[:10]:
        transition = stratum.sample_transition(clause, rng, ("G", "N", "A"), allowed)
        assert transition is not None and set(transition.operators) <= set(allowed)
    assert stratum.sample_transition(clause, rng, ("A",), ["g_cross_threshold"]) is None
    with pytest.raises(KeyError, match="unknown operator"):
        stratum.sample_transition(clause, rng, ("G",), ["g_teleport"])
    with pytest.raises(ValueError, match="subset"):
        stratum.sample_transition(clause, rng, ("G", "X"))


def test_sampling_is_deterministic(stratum: OrganizationalStratum) -> None:
    clause = stratum.units(0)[5]
    first = [stratum.sample_transition(clause, random.Random(3), s) for s in SUBSETS]
    again = [stratum.sample_transition(clause, random.Random(3), s) for s in SUBSETS]
    assert first == again
