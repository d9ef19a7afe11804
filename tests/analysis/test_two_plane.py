"""The two-plane audit's semantics on per-case facts: routing, executions, reason debt, recall
(hypothesis properties and a worked example computed by hand)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.jsontypes import from_json, to_json
from reasonbench.analysis.selective import Decision, apply_threshold
from reasonbench.analysis.two_plane import (
    ACCEPT_ALL,
    CERTIFY_ALL,
    GRID,
    Case,
    Certified,
    Route,
    TwoPlanePoint,
    two_plane_points,
)


def case(cal: float | None, gold_changed: bool, right: bool, executions: int) -> Case:
    assert gold_changed or not right  # a right account is a gold change with the exact receipt
    d = Decision(True, right, gold_changed, 0.5, "seq_prob")
    return Case(cal, d, Certified(f"e{executions}", executions, 8))


@st.composite
def cases(draw: st.DrawFn, calibrated: bool = False) -> tuple[list[Case], int]:
    n = draw(st.integers(0, 12))
    out = []
    for _ in range(n):
        none = not calibrated and draw(st.booleans())
        cal = None if none else draw(st.floats(0, 1, allow_nan=False))
        gold = draw(st.booleans())
        right = gold and draw(st.booleans())
        out.append(case(cal, gold, right, draw(st.integers(2, 8))))
    extra = draw(st.integers(0, 5))  # gold changes the model predicted stable
    return out, sum(c.decision.gold_changed for c in out) + extra


def by_route(points: list[TwoPlanePoint]) -> dict[str, TwoPlanePoint]:
    return {p.route: p for p in points}


# -- the worked example (docs/analysis.md, "The two-plane audit") -----------------------------
#   A: c = 0.9, gold change, exact receipt      (5 executions)
#   B: c = 0.4, gold change, wrong receipt      (6)
#   C: no calibrated confidence, gold stable    (2: endpoints agree)
#   D: c = 0.7, gold stable (a drift)           (2)
#   and one gold change the model predicted stable: 3 gold changes, 1 missed
WORKED = [case(0.9, True, True, 5), case(0.4, True, False, 6), case(None, False, False, 2),
          case(0.7, False, False, 2)]  # fmt: skip


@pytest.mark.parametrize(
    ("route", "certified", "executions", "share", "debt", "correct"),
    [
        (ACCEPT_ALL, 0, 0, None, 3 / 4, 1),  # the model alone: only A is right
        ("0.00", 1, 2, 2 / 8, 2 / 3, 1),  # C (no confidence) is always certified
        ("0.50", 2, 8, 8 / 16, 1 / 2, 2),  # B, C certified; A, D accepted (D wrong)
        ("0.80", 3, 10, 10 / 24, 0.0, 2),  # only A accepted, and it is right
        ("0.95", 4, 15, 15 / 32, None, 2),  # everything certified, nothing accepted
        (CERTIFY_ALL, 4, 15, 15 / 32, None, 2),
    ],
)
def test_worked_example(
    route: str, certified: int, executions: int, share: float | None, debt: float | None,
    correct: int,
) -> None:  # fmt: skip
    p = by_route(two_plane_points(WORKED, gold_changes=3))[route]
    assert (p.predicted_changes, p.uncalibrated, p.certified, p.accepted) == (
        4, 1, certified, 4 - certified,
    )  # fmt: skip
    assert (p.executions, p.exhaustive) == (executions, 8 * certified)
    assert p.execution_share == share and p.reason_debt == debt
    assert (p.gold_changes, p.gold_changes_correct, p.missed) == (3, correct, 1)
    assert p.gold_change_recall == correct / 3


def test_grid_runs_from_accept_all_to_certify_all() -> None:
    assert [r.label for r in GRID][:2] == [ACCEPT_ALL, "0.00"]
    assert [r.label for r in GRID][-2:] == ["1.00", CERTIFY_ALL]
    assert [r.threshold for r in GRID[1:-1]] == [round(0.05 * i, 2) for i in range(21)]
    with pytest.raises(ValueError, match="needs a threshold"):
        Route("0.30")
    with pytest.raises(ValueError, match="needs a threshold"):
        Route(CERTIFY_ALL, 0.5)


def test_more_predicted_gold_changes_than_gold_is_refused() -> None:
    with pytest.raises(ValueError, match="more than the 1 gold changes"):
        two_plane_points(WORKED, gold_changes=1)


@settings(max_examples=100, deadline=None)
@given(cases())
def test_certified_set_only_grows_along_the_grid(data: tuple[list[Case], int]) -> None:
    """Along GRID (accept all, τ ascending, certify all) a case once certified stays certified,
    so certified count, executions and recall never fall (a certified gold change is right)."""
    points = two_plane_points(*data)
    for a, b in zip(points, points[1:], strict=False):
        assert b.certified >= a.certified and b.executions >= a.executions
        assert b.gold_changes_correct >= a.gold_changes_correct
    for r in GRID:  # every certified set of a route holds the one of the route before it
        certified = {i for i, c in enumerate(data[0]) if r.certifies(c.calibrated)}
        later = GRID[GRID.index(r) :]
        assert all(
            certified <= {i for i, c in enumerate(data[0]) if s.certifies(c.calibrated)}
            for s in later
        )


@settings(max_examples=100, deadline=None)
@given(cases())
def test_every_predicted_change_is_certified_or_accepted(data: tuple[list[Case], int]) -> None:
    for p in two_plane_points(*data):
        assert p.certified + p.accepted == p.predicted_changes == len(data[0])
        assert p.missed == data[1] - sum(c.decision.gold_changed for c in data[0])
        assert p.executions <= p.exhaustive == 8 * p.certified


@settings(max_examples=100, deadline=None)
@given(cases(calibrated=True))
def test_tau_below_every_confidence_certifies_nothing(data: tuple[list[Case], int]) -> None:
    cases_, gold = data
    low = min((c.calibrated for c in cases_ if c.calibrated is not None), default=0.0)
    (p,) = two_plane_points(cases_, gold, [Route("low", low)])
    assert (p.certified, p.executions, p.accepted) == (0, 0, len(cases_))
    # with every case calibrated, a τ at or below them all is the model alone ("accept all")
    assert (
        replace(p, route=ACCEPT_ALL, threshold=None)
        == two_plane_points(cases_, gold, [Route(ACCEPT_ALL)])[0]
    )


@settings(max_examples=100, deadline=None)
@given(cases())
def test_tau_above_every_confidence_certifies_everything(data: tuple[list[Case], int]) -> None:
    cases_, gold = data
    (p,) = two_plane_points(cases_, gold, [Route("high", 1.5)])
    assert (p.certified, p.accepted, p.reason_debt) == (len(cases_), 0, None)
    assert p.executions == sum(c.certified.executions for c in cases_)
    predicted_gold = sum(c.decision.gold_changed for c in cases_)
    # recall = the share of gold changes the model predicted as a change
    assert p.gold_change_recall == (predicted_gold / gold if gold else None)


@settings(max_examples=100, deadline=None)
@given(cases(), st.floats(0, 1, allow_nan=False))
def test_reason_debt_is_selective_debt_of_the_accepted(
    data: tuple[list[Case], int], tau: float
) -> None:
    """The accepted set of a threshold route is what selective evaluation accepts at τ on the
    calibrated confidences, so its reason debt is the project's one definition."""
    cases_, gold = data
    (p,) = two_plane_points(cases_, gold, [Route("t", tau)])
    rows = [
        Decision(True, c.decision.account_correct, c.decision.gold_changed, c.calibrated, "s")
        for c in cases_
    ]
    selective = apply_threshold(rows, tau, 0.0)
    assert (p.accepted, p.reason_debt) == (selective.accepted, selective.reason_debt)


@settings(max_examples=50, deadline=None)
@given(cases())
def test_points_round_trip_through_json(data: tuple[list[Case], int]) -> None:
    points = two_plane_points(*data)
    text = json.dumps(to_json(points), sort_keys=True)
    assert from_json(list[TwoPlanePoint], json.loads(text)) == points
