"""The one-rule lookahead of rule edits gives exactly the verdicts of a full re-evaluation."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.strata.logical import Authority, Facts, Rule, Rules, World, verdict
from reasonbench.strata.logical.lookahead import Edit, moving
from reasonbench.strata.logical.ops import norms
from reasonbench.strata.logical.unit import parts
from reasonbench.strata.logical.world import Atom
from tests.strata.logical.conftest import ground_atoms, rules_of, small_states


def recomputed(
    facts: Facts, rules: Rules, mask: Authority, target: Atom, edits: list[Edit]
) -> list[Edit]:
    before = verdict(facts, rules, mask, target)
    return [e for e in edits if verdict(facts, rules.put(Rule(*e)), mask, target) != before]


@st.composite
def edits(draw: st.DrawFn, rules: Rules) -> list[Edit]:
    """Replacements of existing rules and additions under a fresh id (possibly authorised)."""
    ids = [*rules.ids(), max(rules.ids(), default=0) + 1]
    out = []
    for _ in range(draw(st.integers(1, 5))):
        rule = draw(rules_of(draw(st.sampled_from(ids))))
        out.append((rule.id, rule.premises, rule.conclusion))
    return out


@settings(max_examples=100, deadline=None)
@given(st.data(), small_states(), ground_atoms())
def test_lookahead_matches_full_reevaluation(
    data: st.DataObject, state: tuple[Facts, Rules, Authority], target: Atom
) -> None:
    facts, rules, mask = state
    options = data.draw(edits(rules))
    fresh = max(rules.ids(), default=0) + 1
    if data.draw(st.booleans()):
        mask = mask.toggle(fresh)  # a pre-authorised id: an added rule is authorised at once
    assert list(moving(facts, rules, mask, target, options)) == recomputed(
        facts, rules, mask, target, options
    )


def test_lookahead_on_world_edits(worlds: list[World]) -> None:
    rng = random.Random("lookahead")
    families = (
        norms.replace_premise,
        norms.replace_conclusion,
        norms.drop_premise,
        norms.add_premise,
    )
    checked = 0
    for world in worlds[:20]:
        facts, rules, mask = parts(world.state)
        target = rng.choice(world.queryable())
        for rule in rules.rules:
            options = [e for family in families for e in family(world, rule)]
            expected = recomputed(facts, rules, mask, target, options)
            assert list(moving(facts, rules, mask, target, options)) == expected
            checked += len(options)
    assert checked > 500
