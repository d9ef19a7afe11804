"""The world format: exact JSON round trip, canonical components, validation messages."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest
from hypothesis import given, settings

from reasonbench.core import EvaluatorState
from reasonbench.core.canonical import canonical_json
from reasonbench.strata.base import state_text
from reasonbench.strata.logical import Authority, Facts, LogicalStratum, Rule, Rules, World
from reasonbench.strata.logical.world import FORMAT, fresh_rule_id
from tests.strata.logical.conftest import ground_atoms, rules_of, small_states


@settings(max_examples=100, deadline=None)
@given(small_states())
def test_state_json_round_trip_is_exact(state: tuple[Facts, Rules, Authority]) -> None:
    stratum = LogicalStratum.__new__(LogicalStratum)  # JSON needs no data files
    facts, rules, mask = state
    original = EvaluatorState.of(G=facts, N=rules, A=mask)
    data = json.loads(json.dumps(stratum.state_to_json(original)))
    assert stratum.state_from_json(data) == original
    assert stratum.state_to_json(stratum.state_from_json(data)) == data


@settings(max_examples=100, deadline=None)
@given(small_states())
def test_state_text_is_the_canonical_json_of_the_state(
    state: tuple[Facts, Rules, Authority],
) -> None:
    # Records store this text and pools compare it: the cheap path must be the plain one.
    stratum = LogicalStratum.__new__(LogicalStratum)
    facts, rules, mask = state
    original = EvaluatorState.of(G=facts, N=rules, A=mask)
    plain = canonical_json(stratum.state_to_json(original))
    assert stratum.state_text(original) == plain
    assert stratum.state_text(original) == plain  # again, from the parts' memo
    assert state_text(stratum, original) == plain


def test_world_states_round_trip(stratum: LogicalStratum, worlds: list[World]) -> None:
    for world in worlds[:100]:
        data = json.loads(json.dumps(stratum.state_to_json(world.state)))
        assert data["format"] == FORMAT
        assert stratum.state_from_json(data) == world.state


def test_json_example_matches_the_docs(stratum: LogicalStratum) -> None:
    data = {
        "format": FORMAT,
        "facts": [["red", "bob"], ["big", "bob"], ["likes", "anne", "bob"]],
        "rules": [{"id": 1, "if": [["big", "X"], ["red", "X"]], "then": ["kind", "X"]}],
        "authority": [1],
    }
    state = stratum.state_from_json(data)
    assert state["G"].atoms == (("big", "bob"), ("likes", "anne", "bob"), ("red", "bob"))
    assert stratum.adjudicator({"query": ["kind", "bob"]}).adjudicate(state) == "holds"


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"format": "other/9"}, "unknown format"),
        ({"facts": [["Red", "bob"]]}, "must match"),
        ({"facts": [["red", "X"]]}, "must match"),
        ({"facts": [["red"]]}, "an atom is"),
        ({"rules": [{"id": 1, "if": [], "then": ["kind", "X"]}]}, "premises"),
        ({"rules": [{"id": 1, "if": [["red", "bob"]], "then": ["kind", "X"]}]}, "X must occur"),
        ({"rules": [{"id": 1, "if": [["red", "X"]], "then": ["kind", "bob"]}]}, "X must occur"),
        ({"rules": [{"id": 1, "if": [["red", "X"]], "then": ["red", "X"]}]}, "also a premise"),
        ({"rules": [{"id": 0, "if": [["red", "X"]], "then": ["kind", "X"]}]}, "positive int"),
        ({"rules": [{"id": 1, "if": [["red", "X"]]}]}, "a rule is"),
        ({"authority": ["r1"]}, "positive ints"),
        ({"authority": [1, "r2"]}, "positive ints"),
        ({"authority": [0]}, "positive ints"),
        ({"facts": {"red": "bob"}}, "JSON list"),
        ({"extra": 1}, "exactly the keys"),
    ],
)
def test_malformed_json_is_rejected_with_a_reason(
    stratum: LogicalStratum, patch: dict[str, object], message: str
) -> None:
    data: dict[str, object] = {"format": FORMAT, "facts": [], "rules": [], "authority": []}
    data.update(patch)
    with pytest.raises(ValueError, match=message):
        stratum.state_from_json(data)


def test_duplicate_rule_ids_are_rejected(stratum: LogicalStratum) -> None:
    rule = {"id": 1, "if": [["red", "X"]], "then": ["kind", "X"]}
    data = {"format": FORMAT, "facts": [], "rules": [rule, rule], "authority": []}
    with pytest.raises(ValueError, match="unique"):
        stratum.state_from_json(data)


def test_components_are_canonical() -> None:
    assert Facts.of([("b", "x"), ("a", "x"), ("a", "x")]) == Facts.of([("a", "x"), ("b", "x")])
    with pytest.raises(ValueError, match="sorted"):
        Facts((("b", "x"), ("a", "x")))
    with pytest.raises(ValueError, match="sorted"):
        Authority((2, 1))
    rules = Rules.of([Rule(2, (("p", "X"),), ("q", "X")), Rule(1, (("q", "X"),), ("r", "X"))])
    assert rules.ids() == (1, 2)
    assert fresh_rule_id(rules, Authority.of([7])) == 8
    assert Authority.of([1, 3]).toggle(3).toggle(2) == Authority.of([1, 2])


@settings(max_examples=100, deadline=None)
@given(small_states(), ground_atoms(), rules_of(3))
def test_edits_build_the_canonical_components(
    state: tuple[Facts, Rules, Authority], atom: tuple[str, ...], rule: Rule
) -> None:
    """Edits skip re-validating the whole component; they must build exactly what the
    validating constructors build (same members, order and hash)."""
    facts, rules, mask = state
    for edited, canonical in [
        (facts.add(atom), Facts.of((*facts.atoms, atom))),
        (facts.remove(atom), Facts.of(a for a in facts.atoms if a != atom)),
        (rules.put(rule), Rules.of((*(r for r in rules.rules if r.id != rule.id), rule))),
        (rules.remove(rule.id), Rules.of(r for r in rules.rules if r.id != rule.id)),
        (mask.toggle(rule.id), Authority.of(set(mask.allowed) ^ {rule.id})),
    ]:
        assert edited == canonical and hash(edited) == hash(canonical)
        assert dataclasses.replace(edited) == edited  # re-running validation passes
    with pytest.raises(ValueError, match="must match"):
        facts.add(("Bad", "x"))
    with pytest.raises(ValueError, match="positive"):
        mask.toggle(0)


def test_rules_pickle_with_their_hash_recomputed() -> None:
    rule = Rule(4, (("p", "X"), ("e", "X", "a")), ("q", "X"))
    copy = pickle.loads(pickle.dumps(rule))
    assert copy == rule and hash(copy) == hash(rule) and {copy: 1}[rule] == 1
