"""Operators are typed: each touches only its source; compositions change exactly the requested
sources; no-op operators never move any verdict; the sink invariant survives every edit."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, EvaluatorState, changed_sources, hybrid, mask_from_names
from reasonbench.strata.logical import OPERATORS, LogicalStratum, World, verdict
from tests.strata.logical.conftest import rng_for

SUBSETS = [s for r in (1, 2, 3) for s in itertools.combinations(GNA, r)]
NOOPS = sorted(name for name, op in OPERATORS.items() if op.noop)


def test_registry_is_typed_and_complete(stratum: LogicalStratum) -> None:
    assert dict(stratum.operators) == OPERATORS
    by_source = {s: sorted(n for n, op in OPERATORS.items() if op.source == s) for s in GNA}
    assert all(len(names) >= 3 for names in by_source.values())
    assert {OPERATORS[n].source for n in NOOPS} == set(GNA)  # a deliberate no-op per source
    assert all(op.name == name and op.description for name, op in OPERATORS.items())


def _sinks_stay_sinks(world: World, old: EvaluatorState[Any], new: EvaluatorState[Any]) -> bool:
    """Sinks are never premises, and no edit turns a core rule into a sink rule or back."""
    rules = new["N"].rules
    no_sink_premise = not any(p[0] in world.sinks for r in rules for p in r.premises)
    before = {r.id: world.is_core(r) for r in old["N"].rules}
    same_kind = all(before.get(r.id, world.is_core(r)) == world.is_core(r) for r in rules)
    return no_sink_premise and same_kind


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 799), st.sampled_from(sorted(OPERATORS)), st.integers(0, 10**6))
def test_each_operator_touches_only_its_source(
    stratum: LogicalStratum, worlds: list[World], index: int, name: str, seed: int
) -> None:
    world, source = worlds[index], OPERATORS[name].source
    case = stratum.sample_transition(world, rng_for(seed), (source,), [name])
    if case is None:  # the operator does not apply to this world
        return
    assert case.old == world.state and case.operators == (name,)
    assert changed_sources(case.old, case.new) == mask_from_names([source], GNA)
    assert _sinks_stay_sinks(world, case.old, case.new)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 799), st.sampled_from(SUBSETS), st.integers(0, 10**6))
def test_compositions_change_exactly_the_requested_sources(
    stratum: LogicalStratum, worlds: list[World], index: int, sources: tuple[str, ...], seed: int
) -> None:
    case = stratum.sample_transition(worlds[index], rng_for(seed), sources)
    assert case is not None
    assert changed_sources(case.old, case.new) == mask_from_names(list(sources), GNA)
    assert [OPERATORS[n].source for n in case.operators] == [s for s in GNA if s in sources]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 799), st.sampled_from(NOOPS), st.sampled_from(SUBSETS), st.integers(0, 10**6))
def test_noop_operators_never_move_a_verdict(
    stratum: LogicalStratum,
    worlds: list[World],
    index: int,
    noop: str,
    others: tuple[str, ...],
    seed: int,
) -> None:
    """Composed with any other edits, replacing the no-op's source never changes any cell of
    any query's cube: V(S + noop source) = V(S) for every S and every queryable atom."""
    world, source = worlds[index], OPERATORS[noop].source
    sources = tuple(sorted({source, *others}, key=GNA.index))
    allowed = [n for n, op in OPERATORS.items() if op.source != source] + [noop]
    case = stratum.sample_transition(world, rng_for(seed), sources, allowed)
    if case is None:
        return
    bit = mask_from_names([source], GNA)
    for mask in range(8):
        if mask & bit:
            continue
        without, with_noop = (
            hybrid(case.old, case.new, mask),
            hybrid(case.old, case.new, mask | bit),
        )
        for atom in world.queryable():
            assert verdict(*without.components, atom) == verdict(*with_noop.components, atom)


def test_unknown_sources_and_operators_are_rejected(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    with pytest.raises(ValueError, match="sources"):
        stratum.sample_transition(worlds[0], rng_for(0), ("G", "X"))
    with pytest.raises(ValueError, match="sources"):
        stratum.sample_transition(worlds[0], rng_for(0), ())
    with pytest.raises(ValueError, match="unknown operator"):
        stratum.sample_transition(worlds[0], rng_for(0), ("G",), ["no_such_op"])


def test_no_applicable_operator_gives_none(stratum: LogicalStratum, worlds: list[World]) -> None:
    # Only authority operators allowed, but the grounds must change: nothing applies.
    assert stratum.sample_transition(worlds[0], rng_for(0), ("G",), ["grant"]) is None


def test_rule_edits_keep_ids_and_additions_use_fresh_ids(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    for i, world in enumerate(worlds[:40]):
        old_ids = set(world.state["N"].ids())
        for name in (
            "edit_premise",
            "edit_conclusion",
            "drop_premise",
            "add_premise",
            "rewrite_rule",
        ):
            case = stratum.sample_transition(world, rng_for(i), ("N",), [name])
            if case is not None:
                assert set(case.new["N"].ids()) == old_ids
        case = stratum.sample_transition(world, rng_for(i), ("N",), ["add_rule"])
        if case is not None:
            (new_id,) = set(case.new["N"].ids()) - old_ids
            assert new_id > max(old_ids | set(world.state["A"].allowed))
            assert new_id not in case.new["A"]  # a new rule starts outside authority
