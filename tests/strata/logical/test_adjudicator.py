"""The adjudicator: registry, the documented worked examples, traces, speed."""

from __future__ import annotations

import random

import pytest

from reasonbench.core import EvaluatorState, execute_cube, get_adjudicator, receipt_of
from reasonbench.strata.logical import (
    LABELS,
    Authority,
    Facts,
    LogicalAdjudicator,
    LogicalStratum,
    Rule,
    Rules,
    World,
)
from reasonbench.strata.logical.chaining import closure


def _state(
    facts: list[tuple[str, ...]], rules: list[Rule], allowed: list[int]
) -> EvaluatorState[object]:
    return EvaluatorState.of(G=Facts.of(facts), N=Rules.of(rules), A=Authority.of(allowed))


# The worked example of docs/strata/logical.md.
R1 = Rule(1, (("big", "X"), ("red", "X")), ("kind", "X"))
R2 = Rule(2, (("kind", "X"),), ("nice", "X"))
R3 = Rule(3, (("young", "X"),), ("nice", "X"))
OLD = _state([("big", "bob"), ("red", "bob")], [R1, R2], [1])
QUERY = {"query": ["nice", "bob"]}


def test_is_a_stratum_and_registers_its_adjudicator(stratum: LogicalStratum) -> None:
    for member in (
        "units",
        "adjudicator",
        "sample_transition",
        "render",
        "add_distractor",
        "trace",
    ):
        assert callable(getattr(stratum, member))  # conformance itself is checked by mypy
    assert stratum.name == "logical" and stratum.labels == LABELS == {"holds", "fails", "refer"}
    adjudicator = get_adjudicator("logical", query=["nice", "bob"])
    assert isinstance(adjudicator, LogicalAdjudicator)
    assert adjudicator.labels == LABELS


def test_worked_examples(stratum: LogicalStratum) -> None:
    adjudicator = stratum.adjudicator(QUERY)
    assert adjudicator.adjudicate(OLD) == "refer"  # R2 is needed but outside authority
    assert adjudicator.adjudicate(OLD.replace(A=Authority.of([1, 2]))) == "holds"
    assert adjudicator.adjudicate(OLD.replace(G=Facts.of([("big", "bob")]))) == "fails"
    # A new fact feeds a new rule that must also be authorised: only all three together.
    new = _state([("big", "bob"), ("red", "bob"), ("young", "bob")], [R1, R2, R3], [1, 3])
    cube = execute_cube(adjudicator, OLD, new)
    assert cube.cells() == {
        "": "refer",
        "G": "refer",
        "N": "refer",
        "A": "refer",
        "G+N": "refer",
        "G+A": "refer",
        "N+A": "refer",
        "G+N+A": "holds",
    }
    assert receipt_of(cube).family() == [["G", "N", "A"]]


def test_worked_example_ambiguous_receipt(stratum: LogicalStratum) -> None:
    old = _state([("big", "bob"), ("red", "bob")], [R1, R2, R3], [1, 3])
    new = old.replace(G=old["G"].add(("young", "bob")), A=Authority.of([1, 2, 3]))
    cube = execute_cube(stratum.adjudicator(QUERY), old, new)
    assert cube.in_cell_order() == (
        "refer",
        "holds",
        "refer",
        "holds",
        "holds",
        "holds",
        "holds",
        "holds",
    )
    assert receipt_of(cube).family() == [["G"], ["A"]]


def test_traces_explain_each_verdict(stratum: LogicalStratum) -> None:
    assert stratum.trace(OLD.replace(A=Authority.of([1, 2])), QUERY) == [
        "R1: big(bob) & red(bob) -> kind(bob)",
        "R2: kind(bob) -> nice(bob)",
        "verdict: holds (authorised rules, depth 2)",
    ]
    refer = stratum.trace(OLD, QUERY)
    assert refer[0] == "no derivation of nice(bob) with authorised rules"
    assert "needs rule(s) outside authority: R2" in refer and refer[-1] == "verdict: refer"
    fails = stratum.trace(OLD.replace(G=Facts.of([("big", "bob")])), QUERY)
    assert fails[-1] == "verdict: fails" and "R2" in fails[1]
    assert stratum.trace(OLD, {"query": ["big", "bob"]}) == ["given: big(bob)", "verdict: holds"]


def test_context_must_name_a_ground_query(stratum: LogicalStratum) -> None:
    with pytest.raises(ValueError, match="needs a 'query'"):
        stratum.adjudicator({})
    with pytest.raises(ValueError, match="must match"):
        stratum.adjudicator({"query": ["nice", "X"]})


def test_closure_cache_never_changes_a_verdict(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    # speed (goal < 200 us/cell) is measured by scripts/bench_logical_sampler.py, not here
    rng = random.Random("speed")
    cases = [stratum.sample_transition(w, rng, ("G", "N", "A")) for w in worlds[:200]]
    closure.cache_clear()
    warm = []
    for case in cases:
        assert case is not None
        warm.append(execute_cube(stratum.adjudicator(case.context), case.old, case.new))
    for case, cube in zip(cases, warm, strict=True):
        assert case is not None
        closure.cache_clear()
        assert execute_cube(stratum.adjudicator(case.context), case.old, case.new) == cube


def test_documented_sampled_case_is_reproduced(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    """Example 4 of docs/strata/logical.md; if the generator changes, update the doc with it."""
    rng = random.Random("doc")
    while True:
        case = stratum.sample_transition(worlds[12], rng, ("G", "N", "A"))
        assert case is not None
        receipt = receipt_of(execute_cube(stratum.adjudicator(case.context), case.old, case.new))
        if receipt.ambiguous:
            break
    assert case.operators == ("remove_fact", "add_premise", "toggle_inert")
    assert case.context == {"query": ["wise", "harry"]} and stratum.proof_depth(case) == 2
    assert receipt.family() == [["G"], ["N"]]
