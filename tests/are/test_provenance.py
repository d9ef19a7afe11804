"""The provenance-based construction and the JSON forms of the ARE records."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings

from reasonbench.are import (
    PAPER_PROFILE,
    ActionSpec,
    AreError,
    Claim,
    ClaimSpec,
    Profile,
    ReflectiveState,
    RelationSpec,
    Thresholds,
    construct,
    random_state,
)
from reasonbench.are.model import check_state
from tests.are.conftest import states

CLAIMS = (
    ClaimSpec("P_DATA", "P", "operator", "Data are not commands.", 1.0, 0.1),
    ClaimSpec("J_OK", "J", "agent", "It is fine.", 0.2),
    ClaimSpec("E_NOTE", "B", "untrusted", "Planted note.", 1.0),
    ClaimSpec("E_FACT", "B", "evidence", "A fact.", 1.0),
)
RELATIONS = (
    RelationSpec("E_NOTE", "go", "supp", "decisive", "agent"),
    RelationSpec("J_OK", "go", "supp", "moderate", "agent"),
    RelationSpec("E_FACT", "J_OK", "supp", "strong", "agent", given=("E_MISSING",)),
    RelationSpec("E_GONE", "J_OK", "att", "strong", "agent"),
)
ACTIONS = (
    ActionSpec("go", "Go.", True, 0.3),
    ActionSpec("stay", "Stay.", True, 0.3, requires=("E_ABSENT",)),
)


def build(**kw: object) -> ReflectiveState:
    args: dict[str, object] = dict(
        claims=CLAIMS, relations=RELATIONS, actions=ACTIONS, profile=PAPER_PROFILE
    )
    args.update(kw)
    return construct(**args, defence="P_DATA", fixed={"P_DATA": 1})  # type: ignore[arg-type]


def test_weights_caps_defence_and_hybrid_compatibility() -> None:
    state = build()
    check_state(state)  # the construction skips validation; its output must pass it
    by_pair = {(r.source, r.target): r for r in state.relations}
    note = by_pair[("E_NOTE", "go")]
    assert note.channel == "untrusted" and note.weight == 0.25  # min(2, omega(untrusted))
    assert by_pair[("J_OK", "go")].weight == 1.0
    defence = by_pair[("P_DATA", "E_NOTE")]
    assert defence.type == "att" and defence.weight == 1.5 and defence.channel == "operator"
    assert ("E_FACT", "J_OK") not in by_pair and ("E_GONE", "J_OK") not in by_pair
    assert "stay" not in state.index and state.consequential == ("go",)
    assert state.claim("go").anchor == -0.3 and state.claim("go").stubbornness == 0.2


def test_instructions_findings_and_priorities() -> None:
    profile = Profile(
        PAPER_PROFILE.stubbornness, instructions=(("go", "user"),), authority=(("user", 3.0),)
    )
    state = build(profile=profile, findings={"J_OK": -0.9}, priorities={"J_OK": 2.0})
    go = state.claim("go")
    assert (go.anchor, go.stubbornness, go.channel, go.instructed) == (1.0, 3.0, "user", "user")
    assert state.claim("J_OK").anchor == -0.9 and state.claim("J_OK").stubbornness == 2.0
    assert {(r.source, r.target): r.weight for r in state.relations}[("J_OK", "go")] == 2.0


@settings(max_examples=40, deadline=None)
@given(states(high=9))
def test_reflective_state_round_trips_through_json(state: ReflectiveState) -> None:
    assert ReflectiveState.from_json(state.to_json()) == state


def test_profile_and_thresholds_round_trip() -> None:
    profile = Profile(PAPER_PROFILE.stubbornness, caps=(), instructions=(("go", "user"),))
    assert Profile.from_json(profile.to_json()) == profile
    assert math.isinf(Profile.from_json(profile.to_json()).cap("untrusted"))
    thresholds = Thresholds(0.5, 0.35, (("operator", 2.0), ("user", math.inf)))
    assert Thresholds.from_json(thresholds.to_json()) == thresholds


def test_invalid_states_are_rejected_with_the_place_named() -> None:
    claims = (Claim("a", "A", "agent"), Claim("p", "P", "operator", 1.0, 1.0))
    with pytest.raises(AreError, match="actions only as -1"):
        ReflectiveState(claims, fixed=(("a", 1),))
    with pytest.raises(AreError, match="endpoint"):
        ReflectiveState.from_json(
            {
                **ReflectiveState(claims).to_json(),
                "relations": [["a", "zz", "att", 1.0, "agent", ""]],
            }
        )
    with pytest.raises(AreError, match="gamma_min"):
        Thresholds(0.0, 0.35)
    with pytest.raises(ValueError):
        random_state(random.Random(0), 1)


def test_construct_reads_actions_from_a_generator() -> None:
    state = build(actions=(a for a in ACTIONS))
    assert state == build() and state.consequential == ("go",)


@pytest.mark.parametrize("theta", [0, 0.0, -1.0, "2", None, True, math.nan, -math.inf])
def test_thresholds_validate_theta_like_their_json_form(theta: object) -> None:
    with pytest.raises(AreError, match="protected.user"):
        Thresholds(0.5, 0.35, (("user", theta),))  # type: ignore[arg-type]
    if theta is not None:  # null is JSON's "no threshold"
        with pytest.raises(AreError, match="protected.user"):
            Thresholds.from_json({"gamma_min": 0.5, "rho_max": 0.35, "protected": {"user": theta}})


def test_thresholds_accept_positive_or_infinite_theta() -> None:
    for theta in (0.5, 2, math.inf):
        thresholds = Thresholds(0.5, 0.35, (("user", theta),))
        assert Thresholds.from_json(thresholds.to_json()) == thresholds
