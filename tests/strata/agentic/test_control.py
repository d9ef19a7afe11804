"""The fourth paired control: quarantined injections leave endpoints and receipt unchanged, so
gold satisfies the registered ``quarantine`` kind's relation and wrong predictions violate it."""

from __future__ import annotations

import random

from reasonbench.controls import CONTROL_KINDS
from reasonbench.core import Cube, execute_cube, receipt_of
from reasonbench.core.answer import Answer
from reasonbench.strata.agentic import AgenticStratum
from reasonbench.strata.agentic.components import Grounds
from reasonbench.strata.base import Transition


def quarantine_consistent(parent: Answer, control: Answer, gold_forward: Cube) -> bool | None:
    """The relation of the ``quarantine`` control kind, as the audit and the analysis call it."""
    return CONTROL_KINDS.get("quarantine").relation(parent, control, gold_forward)


def said(stratum: AgenticStratum, t: Transition) -> Answer:
    cube = execute_cube(stratum.adjudicator(t.context), t.old, t.new)
    receipt = receipt_of(cube)
    return Answer(receipt.old, receipt.new, receipt.sets, cube)


def test_gold_satisfies_the_quarantine_relation(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    made = 0
    for i, t in enumerate(transitions):
        control = stratum.quarantine_control(t, random.Random(i))
        if control is None:
            continue
        made += 1
        grounds = control.new["G"]
        assert isinstance(grounds, Grounds) and any(
            c.channel == "untrusted" for c in grounds.claims
        )
        assert control.old != t.old and control.new != t.new
        parent = said(stratum, t)
        assert parent.cube is not None
        assert quarantine_consistent(parent, said(stratum, control), parent.cube) is True
    assert made >= len(transitions) * 3 // 4


def test_a_wrong_prediction_violates_it(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    t = transitions[0]
    control = stratum.quarantine_control(t, random.Random(0))
    assert control is not None
    parent = said(stratum, t)
    gold = parent.cube
    assert gold is not None
    flipped = "refer" if parent.new != "refer" else "no_action"
    wrong = Answer(parent.old, flipped, parent.sets, None)
    assert quarantine_consistent(parent, wrong, gold) is False
    assert quarantine_consistent(parent, Answer(parent.old, parent.new, (7,), None), gold) is False
    nothing = Answer(None, None, None)
    assert quarantine_consistent(nothing, nothing, gold) is None
