"""Distractors are certified: added to both states, they change no cell of the cube."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, changed_sources, execute_cube
from reasonbench.strata.base import Transition
from reasonbench.strata.logical import LogicalStratum, World

SUBSETS = [s for r in (1, 2, 3) for s in itertools.combinations(GNA, r)]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 799), st.sampled_from(SUBSETS), st.integers(0, 10**6))
def test_distractors_never_change_a_cell(
    stratum: LogicalStratum, worlds: list[World], index: int, sources: tuple[str, ...], seed: int
) -> None:
    rng = random.Random(seed)
    case = stratum.sample_transition(worlds[index], rng, sources)
    assert case is not None
    distracted = stratum.add_distractor(case, rng)
    assert distracted is not None
    adjudicator = stratum.adjudicator(case.context)
    assert execute_cube(adjudicator, distracted.old, distracted.new) == execute_cube(
        adjudicator, case.old, case.new
    )
    # The same material went into both states, so the revision itself is untouched.
    assert changed_sources(distracted.old, distracted.new) == changed_sources(case.old, case.new)
    assert distracted.context == case.context and distracted.operators == case.operators
    added = [s for s in GNA if distracted.old[s] != case.old[s]]
    assert added in (["G"], ["N"], ["N", "A"])


def _names(case: Transition) -> set[str]:
    names = set(case.context["query"])
    for state in (case.old, case.new):
        names |= {t for a in state["G"].atoms for t in a}
        names |= {t for r in state["N"].rules for a in (*r.premises, r.conclusion) for t in a}
    return names


def test_distractors_use_names_fresh_to_the_case(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    rng = random.Random("fresh")
    kinds = set()
    for world in worlds[:200]:
        case = stratum.sample_transition(world, rng, ("G", "N"))
        assert case is not None
        distracted = stratum.add_distractor(case, rng)
        assert distracted is not None
        used = _names(case)
        new_facts = set(distracted.old["G"].atoms) - set(case.old["G"].atoms)
        new_rules = set(distracted.old["N"].rules) - set(case.old["N"].rules)
        for atom in new_facts:
            assert any(t not in used for t in atom[1:])  # about a fresh entity
            kinds.add("link" if len(atom) == 3 else "fact")
        for rule in new_rules:
            assert rule.conclusion[0] not in used  # concludes a fresh property
            assert rule.id not in case.old["N"].ids() and rule.id not in case.new["N"].ids()
            kinds.add("rule")
    assert kinds == {"fact", "link", "rule"}
