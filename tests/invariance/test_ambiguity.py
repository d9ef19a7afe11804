"""Clear vs ambiguous, by execution: known answers on the business-meal clause."""

from __future__ import annotations

from reasonbench.core.cube import execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.core.state import EvaluatorState
from reasonbench.invariance.ambiguity import ambiguity_reasons, boundary_fields
from reasonbench.invariance.thresholds import Shift, relax
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR
from reasonbench.strata.organizational.model import Grounds

CLAUSE = OrganizationalStratum().clause("org-expenses-meals")
# approve if cost <= 60 and receipt; deny if days > 60; exception: client meal, cost <= 120,
# receipt; scope: sales..operations, EU/UK, total 0..1500
FAR = {"department": "sales", "region": "EU", "meal_type": "team_meal", "cost_per_person": 30,
       "total_amount": 400, "itemised_receipt": True, "days_since_meal": 10}  # fmt: skip


def state(**changes: object) -> EvaluatorState[object]:
    values = {**FAR, **changes}
    grounds = Grounds(tuple((f.name, values[f.name]) for f in CLAUSE.fields))
    return EvaluatorState.of(G=grounds, N=CLAUSE.rule, A=CLAUSE.scope)


def test_far_from_every_threshold_is_clear() -> None:
    assert ADJUDICATOR.adjudicate(state()) == "approve"
    assert boundary_fields(CLAUSE, state()) == ()


def test_one_step_from_a_threshold_is_ambiguous() -> None:
    at_cost = state(cost_per_person=60)  # 65 would no longer be approved
    assert boundary_fields(CLAUSE, at_cost) == ("cost_per_person",)
    at_days = state(days_since_meal=61)  # 60 days would be approved
    assert boundary_fields(CLAUSE, at_days) == ("days_since_meal",)
    at_band = state(total_amount=1500)  # 1510 is outside the delegated band: refer
    assert boundary_fields(CLAUSE, at_band) == ("total_amount",)
    # two steps away is clear at margin 1, at a threshold at margin 2
    assert boundary_fields(CLAUSE, state(cost_per_person=55)) == ()
    assert boundary_fields(CLAUSE, state(cost_per_person=55), margin=2) == ("cost_per_person",)


def test_reasons_name_endpoint_and_receipt_ambiguity() -> None:
    t = Transition(CLAUSE.unit_id, state(), state(cost_per_person=60), ())
    gold = execute_cube(ADJUDICATOR, t.old, t.new)
    assert ambiguity_reasons(CLAUSE, t, receipt_of(gold)) == ("new:cost_per_person",)
    # a receipt with two minimal sets makes an item ambiguous however far its facts are: the
    # revised cost (50) alone and the relaxed rule (<= 90) alone each approve the old claim (80)
    rule = relax(CLAUSE.rule, Shift("cost_per_person", "<=", "approve", 60, 90))
    old = state(cost_per_person=80)
    new = EvaluatorState.of(G=state(cost_per_person=50)["G"], N=rule, A=CLAUSE.scope)
    t = Transition(CLAUSE.unit_id, old, new, ())
    receipt = receipt_of(execute_cube(ADJUDICATOR, t.old, t.new))
    assert receipt.ambiguous and len(receipt.sets) == 2
    assert ambiguity_reasons(CLAUSE, t, receipt) == ("receipt",)
