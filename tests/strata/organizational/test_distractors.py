"""Distractors leave all 8 cube cells unchanged, are added to both states, and are rendered."""

from __future__ import annotations

import random
from collections import Counter

from reasonbench.core import changed_sources, execute_cube
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.model import Grounds
from reasonbench.strata.organizational.schema import Clause


def distractor_grounds(grounds: Grounds, clause: Clause) -> tuple[str, ...]:
    """Names of facts in ``grounds`` that are not schema fields (i.e. added distractors)."""
    return tuple(n for n in grounds.names() if n not in clause.by_name)


def test_distractors_are_certified_by_all_cells(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    judge = stratum.adjudicator({})
    kinds: Counter[str] = Counter()
    for i, transition in enumerate(transitions):
        rng = random.Random(i)
        distracted = stratum.add_distractor(transition, rng)
        assert distracted is not None
        # Certification: every one of the 8 hybrids keeps its verdict.
        before = execute_cube(judge, transition.old, transition.new)
        after = execute_cube(judge, distracted.old, distracted.new)
        assert after.verdicts == before.verdicts
        # Added identically to both states: the set of changed sources is the same.
        assert changed_sources(distracted.old, distracted.new) == changed_sources(
            transition.old, transition.new
        )
        assert distracted.operators == transition.operators
        clause = stratum.clause(transition.unit_id)
        extra = distractor_grounds(distracted.old.components[0], clause)
        if extra:
            kinds["field"] += 1
            assert extra == distractor_grounds(distracted.new.components[0], clause)
            assert len(extra) == 1 and extra[0] not in set(distracted.new.components[1].fields())
        else:
            kinds["sentence"] += 1
            old_norm, new_norm = distracted.old.components[1], distracted.new.components[1]
            assert len(old_norm.items()) == len(transition.old.components[1].items()) + 1
            assert len(new_norm.items()) == len(transition.new.components[1].items()) + 1
    assert kinds["field"] > 50 and kinds["sentence"] > 50


def test_distractor_is_visible_in_every_rendering(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    for i, transition in enumerate(transitions[:60]):
        distracted = stratum.add_distractor(transition, random.Random(i))
        assert distracted is not None
        for family in stratum.template_families:
            plain = stratum.render(transition, family, ("G", "N", "A")).text
            noisy = stratum.render(distracted, family, ("G", "N", "A")).text
            assert noisy != plain and len(noisy) > len(plain)


def test_distractor_state_round_trips(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    for i, transition in enumerate(transitions[:60]):
        distracted = stratum.add_distractor(transition, random.Random(i))
        assert distracted is not None
        for state in (distracted.old, distracted.new):
            assert stratum.state_from_json(stratum.state_to_json(state)) == state
