"""The agentic stratum behind the Stratum contract: units, transitions, JSON, rendering."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from reasonbench.are.model import check_state
from reasonbench.are.validate import AreError
from reasonbench.core import (
    REFER,
    changed_sources,
    execute_cube,
    get_adjudicator,
    mask_members,
    receipt_of,
)
from reasonbench.core.canonical import canonical_json
from reasonbench.core.sources import GNA
from reasonbench.core.state import hybrid
from reasonbench.strata.agentic import AgenticStratum, AgenticUnit, adjudicator, distractors
from reasonbench.strata.base import Transition
from reasonbench.strata.registry import load_stratum
from tests.strata.agentic.conftest import SUBSETS


def test_units_are_deterministic_and_named(
    stratum: AgenticStratum, units: list[AgenticUnit]
) -> None:
    assert len(units) == 64 and len({u.unit_id for u in units}) == 64
    assert units[0].unit_id == "agentic-consumer-000" and units[-1].unit_id == "agentic-hiring-031"
    again = AgenticStratum().units(0)
    assert [(u.unit_id, u.surface, u.environment, u.stance, u.authority) for u in again] == [
        (u.unit_id, u.surface, u.environment, u.stance, u.authority) for u in units
    ]
    assert [u.environment for u in stratum.units(1)] != [u.environment for u in units]


def test_transitions_change_exactly_the_requested_sources(
    stratum: AgenticStratum, units: list[AgenticUnit]
) -> None:
    for i, sources in enumerate(SUBSETS):
        t = stratum.sample_transition(units[i * 5], random.Random(f"src:{i}"), sources)
        assert t is not None
        assert mask_members(changed_sources(t.old, t.new), GNA) == sources
        assert [stratum.operators[o].source for o in t.operators] == list(sources)


def test_allowed_operators_are_respected(stratum: AgenticStratum, units: list[AgenticUnit]) -> None:
    t = stratum.sample_transition(
        units[1], random.Random(3), ("G",), ["g_run_tool", "g_retract_tool"]
    )
    assert t is not None and t.operators[0] in ("g_run_tool", "g_retract_tool")
    with pytest.raises(ValueError):
        stratum.sample_transition(units[1], random.Random(3), ("G",), ["no_such_operator"])
    assert stratum.sample_transition(units[1], random.Random(3), ("N",), ["g_run_tool"]) is None


def test_states_round_trip_and_reexecute(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    for t in transitions:
        cube = execute_cube(stratum.adjudicator(t.context), t.old, t.new)
        text = [json.dumps(stratum.state_to_json(s), sort_keys=True) for s in (t.old, t.new)]
        old, new = (stratum.state_from_json(json.loads(s)) for s in text)
        assert (old, new) == (t.old, t.new)
        context = json.loads(json.dumps(dict(t.context)))
        assert execute_cube(get_adjudicator("agentic", **context), old, new) == cube
        assert set(cube.verdicts) <= stratum.labels
        assert stratum.proof_depth(t) is None
        check_state(stratum.adjudicator(t.context).decision(t.new).state)


def test_state_text_is_the_canonical_json_of_the_state(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    # Records store this text and pools compare it: the text assembled from the components'
    # memos must be the plain canonical JSON, for every state a cube meets.
    for t in transitions:
        for m in range(8):
            state = hybrid(t.old, t.new, m)
            plain = canonical_json(stratum.state_to_json(state))
            assert stratum.state_text(state) == plain
            assert stratum.state_text(state) == plain  # again, from the memos


def test_malformed_states_raise_on_load(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    data = json.loads(json.dumps(stratum.state_to_json(transitions[0].old)))
    clash = dict(data["norms"]["claims"][0])  # a grounds claim with a norms claim's id
    data["grounds"]["claims"].append(clash)
    with pytest.raises(AreError, match="duplicate claim id"):
        stratum.state_from_json(data)


def test_both_families_generate_cases_with_receipts(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    changed = {"consumer": 0, "hiring": 0}
    for t in transitions:
        receipt = receipt_of(execute_cube(stratum.adjudicator(t.context), t.old, t.new))
        if not receipt.stable:
            changed[t.context["case"]] += 1
            assert receipt.sets
    assert all(changed.values()), changed


def test_aim_hints_steer_the_class(stratum: AgenticStratum, units: list[AgenticUnit]) -> None:
    for aim, sources in (("changed", ("G", "N", "A")), ("ambiguous", ("G", "A"))):
        hits = 0
        for i in range(6):
            rng = random.Random(f"aim:{aim}:{i}")
            t = stratum.sample_transition(units[i * 10], rng, sources, aim=aim)
            assert t is not None
            receipt = receipt_of(execute_cube(stratum.adjudicator(t.context), t.old, t.new))
            hits += receipt.ambiguous if aim == "ambiguous" else not receipt.stable
        assert hits >= 4, aim


def test_rendering_every_family_and_order(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    t = transitions[0]
    assert stratum.template_families == ("brief", "ledger", "casefile")
    texts = set()
    for family in stratum.template_families:
        for order in (("G", "N", "A"), ("A", "G", "N")):
            r = stratum.render(t, family, order)
            assert r.template_family == family and r.source_order == order
            assert "{" not in r.text and "}" not in r.text
            texts.add(r.text)
    assert len(texts) == 6
    with pytest.raises(ValueError):
        stratum.render(t, "brief", ("G", "N"))


def test_distractors_are_certified(stratum: AgenticStratum, transitions: list[Transition]) -> None:
    for i, t in enumerate(transitions[:6]):
        d = stratum.add_distractor(t, random.Random(i))
        assert d is not None and d != t


def test_every_distractor_leaves_the_cube_unchanged(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    """The generator itself (no certification filter): every distractor of the family, added
    to both endpoints, leaves every cell of the executed cube as it was."""
    tried = 0
    for t in transitions:
        family = stratum.family_of(t.context)
        adjudicator = stratum.adjudicator(t.context)
        before = execute_cube(adjudicator, t.old, t.new)
        present = distractors.present_claims(t)
        for claim in family.distractors:
            if claim.id in present:
                continue
            d = distractors.with_claim(t, claim)
            assert d != t
            assert execute_cube(adjudicator, d.old, d.new) == before, (t.unit_id, claim.id)
            tried += 1
    assert tried >= 5 * len(transitions) // 2


def test_registry_and_traces(stratum: AgenticStratum, transitions: list[Transition]) -> None:
    assert load_stratum("agentic").name == "agentic"
    assert REFER in stratum.labels and "no_action" in stratum.labels
    t = transitions[0]
    lines = stratum.trace(t.new, t.context)
    assert lines[0].startswith("equilibrium decision") and lines[-1].startswith("verdict: ")


def test_a_task_is_keyed_as_its_plain_tuple(stratum: AgenticStratum) -> None:
    # The adjudicator's caches are reached with tasks and with plain tuples alike.
    actions = next(iter(stratum.families.values())).actions
    task = adjudicator.Task(actions)
    assert task == tuple(actions) and hash(task) == hash(tuple(actions))
    assert {task: 1}[tuple(actions)] == 1
    copy = pickle.loads(pickle.dumps(task))
    assert type(copy) is adjudicator.Task and copy == task and hash(copy) == hash(task)
