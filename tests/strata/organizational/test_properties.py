"""Hypothesis: any grounds inside the schema execute under any rule and scope of the clause."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import EvaluatorState, execute_cube, hybrid, receipt_of
from reasonbench.strata.organizational import (
    OPERATORS,
    Clause,
    FieldSpec,
    Grounds,
    OrganizationalStratum,
)
from reasonbench.strata.organizational.model import Value

STRATUM = OrganizationalStratum()
CLAUSES = STRATUM.units(0)
JUDGE = STRATUM.adjudicator({})
LABELS = {"approve", "deny", "refer"}


def values_of(spec: FieldSpec) -> st.SearchStrategy[Value]:
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "enum":
        return st.sampled_from(spec.values)
    return st.sampled_from(list(spec.grid()))


@st.composite
def grounds_for(draw: st.DrawFn, clause: Clause) -> Grounds:
    return Grounds(tuple((f.name, draw(values_of(f))) for f in clause.fields))


@st.composite
def clause_and_grounds(draw: st.DrawFn) -> tuple[Clause, Grounds]:
    clause = draw(st.sampled_from(CLAUSES))
    return clause, draw(grounds_for(clause))


@settings(max_examples=300, deadline=None)
@given(clause_and_grounds())
def test_random_grounds_always_execute(case: tuple[Clause, Grounds]) -> None:
    clause, grounds = case
    clause.check_grounds(grounds)
    state = EvaluatorState.of(G=grounds, N=clause.rule, A=clause.scope)
    verdict = JUDGE.adjudicate(state)
    assert verdict in LABELS
    assert STRATUM.trace(state, {})[-1] == f"verdict: {verdict}"
    assert STRATUM.state_from_json(STRATUM.state_to_json(state)) == state


@settings(max_examples=150, deadline=None)
@given(
    clause_and_grounds(),
    st.integers(0, 2**32 - 1),
    st.sampled_from([("G",), ("N",), ("A",), ("G", "N"), ("G", "A"), ("N", "A"), ("G", "N", "A")]),
)
def test_random_grounds_execute_in_every_hybrid(
    case: tuple[Clause, Grounds], seed: int, sources: tuple[str, ...]
) -> None:
    """Grounds from anywhere in the schema, combined with the rules and scopes of any
    transition of the clause, in all 8 hybrids: every cell executes to a label."""
    clause, grounds = case
    transition = STRATUM.sample_transition(clause, random.Random(seed), sources)
    assert transition is not None
    for old_or_new in (transition.old, transition.new):
        foreign = old_or_new.replace(G=grounds)
        assert JUDGE.adjudicate(foreign) in LABELS
    cube = execute_cube(JUDGE, transition.old, transition.new)
    assert set(cube.verdicts) <= LABELS
    for mask in range(8):
        cell = hybrid(transition.old, transition.new, mask)
        clause.check_grounds(cell.components[0])
    receipt_of(cube)


@settings(max_examples=150, deadline=None)
@given(clause_and_grounds(), st.sampled_from(sorted(OPERATORS)), st.integers(0, 2**32 - 1))
def test_operators_keep_random_states_executable(
    case: tuple[Clause, Grounds], name: str, seed: int
) -> None:
    clause, grounds = case
    state = EvaluatorState.of(G=grounds, N=clause.rule, A=clause.scope)
    op = OPERATORS[name]
    component = op.apply(clause, state, random.Random(seed))
    if component is None:
        return
    new = state.replace(**{op.source: component})
    clause.check_grounds(new.components[0])
    for mask in range(8):
        assert JUDGE.adjudicate(hybrid(state, new, mask)) in LABELS
