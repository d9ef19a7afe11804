"""State JSON: self-contained, exact round trip, re-executable, and validated on the way in."""

from __future__ import annotations

import json

import pytest

from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import ClauseError, OrganizationalStratum


def test_round_trip_is_exact(stratum: OrganizationalStratum, transitions: list[Transition]) -> None:
    judge = stratum.adjudicator({})
    for transition in transitions:
        for state in (transition.old, transition.new):
            document = json.loads(json.dumps(stratum.state_to_json(state)))
            back = stratum.state_from_json(document)
            assert back == state
            assert stratum.state_to_json(back) == document
            assert judge.adjudicate(back) == judge.adjudicate(state)


def test_document_shape(stratum: OrganizationalStratum, transitions: list[Transition]) -> None:
    document = stratum.state_to_json(transitions[0].old)
    assert set(document) == {"format", "grounds", "norms", "authority"}
    assert set(document["norms"]) == {"default", "conditions", "exceptions"}
    assert all(set(t) == {"field", "op", "value"} for t in document["authority"]["scope"])


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other/1"), "expected 'reasonbench.organizational.state/1'"),
        (lambda d: d["grounds"].update(x=[1]), "unsupported value"),
        (lambda d: d["norms"].update(default="maybe"), "default must be one of"),
        (lambda d: d["norms"]["conditions"][0]["when"][0].update(op="~"), "op '~' not allowed"),
        (lambda d: d["authority"]["scope"][0].update(op="<="), "op '<=' not allowed"),
        (lambda d: d["grounds"].pop(next(iter(d["grounds"]))), "the grounds lack"),
        (lambda d: d.pop("authority"), "missing key(s) ['authority']"),
    ],
)
def test_bad_documents_are_rejected(
    stratum: OrganizationalStratum, transitions: list[Transition], mutate: object, message: str
) -> None:
    document = json.loads(json.dumps(stratum.state_to_json(transitions[0].old)))
    mutate(document)  # type: ignore[operator]
    with pytest.raises(ClauseError, match=None) as info:
        stratum.state_from_json(document)
    assert message in str(info.value)


def test_states_and_units_pickle(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    """Assembly may fan out over processes: transitions and clauses must survive pickling."""
    import pickle

    judge = stratum.adjudicator({})
    for transition in transitions[:50]:
        back = pickle.loads(pickle.dumps(transition))
        assert back == transition
        assert judge.adjudicate(back.new) == judge.adjudicate(transition.new)
    clause = stratum.units(0)[0]
    assert pickle.loads(pickle.dumps(clause)).spec("role") == clause.spec("role")
