"""The trusted adjudicator: authority gate first, then exceptions, deny-overrides, default."""

from __future__ import annotations

from reasonbench.core import EvaluatorState, get_adjudicator, registered_adjudicators
from reasonbench.core.adjudicator import Adjudicator
from reasonbench.strata.organizational import (
    Condition,
    Grounds,
    Norm,
    OrganizationalStratum,
    Predicate,
    Scope,
)

RULE = Norm(
    default="deny",
    conditions=(
        Condition((Predicate("amount", "<=", 60), Predicate("receipt", "is", True)), "approve"),
        Condition((Predicate("days", ">", 30),), "deny"),
    ),
    exceptions=(
        Condition(
            (Predicate("kind", "in", ("client",)), Predicate("amount", "<=", 120)), "approve"
        ),
        Condition((Predicate("kind", "in", ("client",)),), "deny"),
    ),
)
SCOPE = Scope((Predicate("region", "in", ("EU", "UK")), Predicate("amount", "between", (0, 500))))


def state(**facts: object) -> EvaluatorState[object]:
    base = {"region": "EU", "kind": "team", "amount": 40, "receipt": True, "days": 3}
    base.update(facts)
    return EvaluatorState.of(G=Grounds(tuple(base.items())), N=RULE, A=SCOPE)  # type: ignore[arg-type]


def test_registered_and_protocol(stratum: OrganizationalStratum) -> None:
    assert "organizational" in registered_adjudicators()
    adjudicator = get_adjudicator("organizational")
    assert isinstance(adjudicator, Adjudicator)
    assert adjudicator is stratum.adjudicator({})
    assert adjudicator.labels == frozenset({"approve", "deny", "refer"}) == stratum.labels


def test_semantics() -> None:
    judge = get_adjudicator("organizational")
    assert judge.adjudicate(state()) == "approve"  # approve condition fires
    assert judge.adjudicate(state(amount=70)) == "deny"  # nothing fires: default deny
    assert judge.adjudicate(state(days=40)) == "deny"  # deny overrides approve
    assert judge.adjudicate(state(kind="client", amount=100)) == "approve"  # exception 1
    assert judge.adjudicate(state(kind="client", amount=130)) == "deny"  # exception 2 (order)
    # Authority is a gate, not a norm: outside the scope no merits ruling is made.
    assert judge.adjudicate(state(region="US")) == "refer"
    assert judge.adjudicate(state(amount=600, kind="client")) == "refer"


def test_trace_says_what_fired(stratum: OrganizationalStratum) -> None:
    assert stratum.trace(state(region="US"), {}) == [
        "outside scope: not region=US in [EU, UK]",
        "verdict: refer",
    ]
    lines = stratum.trace(state(days=40), {})
    assert "approve condition fires: amount=40 <= 60 and receipt=True is True" in lines
    assert "deny condition fires: days=40 > 30" in lines
    assert "deny overrides approve" in lines and lines[-1] == "verdict: deny"
    assert stratum.trace(state(kind="client", amount=100), {})[1].startswith("exception 1 fires")
    assert stratum.trace(state(amount=70), {})[-2:] == [
        "no condition fires: default deny",
        "verdict: deny",
    ]
    assert all(len(stratum.trace(state(), {})) <= 6 for _ in range(1))


def test_trace_matches_verdict(stratum: OrganizationalStratum, transitions: list) -> None:  # type: ignore[type-arg]
    judge = stratum.adjudicator({})
    for transition in transitions[:200]:
        for s in (transition.old, transition.new):
            assert stratum.trace(s, {})[-1] == f"verdict: {judge.adjudicate(s)}"


def test_deterministic(transitions: list) -> None:  # type: ignore[type-arg]
    judge = get_adjudicator("organizational")
    for transition in transitions[:100]:
        assert len({judge.adjudicate(transition.new) for _ in range(3)}) == 1
