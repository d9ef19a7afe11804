"""Threshold-shift pairs: relaxing is monotone, the expected direction comes from execution."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reasonbench.invariance.suite import StressSuite
from reasonbench.invariance.thresholds import (
    TO_LAX,
    Shift,
    choose_shift,
    relax,
    relaxed_transition,
    shift_options,
)
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.compose import sample_transition
from reasonbench.strata.organizational.model import APPROVE, DENY, Condition, Norm, Predicate
from reasonbench.strata.organizational.sampling import sample_grounds

STRATUM = OrganizationalStratum()
CLAUSES = STRATUM.clause_set.clauses


@pytest.mark.parametrize("clause", CLAUSES[::3], ids=lambda c: c.unit_id)
def test_relaxing_never_moves_a_verdict_towards_deny(clause: object) -> None:
    clause = STRATUM.clause(clause.unit_id)  # type: ignore[attr-defined]
    rng = random.Random(f"monotone:{clause.unit_id}")
    for _ in range(4):
        t = sample_transition(clause, rng, ("G", "N"), None, None)
        assert t is not None
        for shift, expected in shift_options(clause, t, rng):
            assert expected in (TO_LAX, "none")
            grounds, strict, scope = unpack(t.new)
            lax = relax(strict, shift)
            assert lax != strict
            # beyond the item: on many sampled cases the relaxed rule approves a superset
            for _ in range(30):
                g = sample_grounds(clause, strict, scope, rng).mapping
                assert not (strict.decide(g) == APPROVE and lax.decide(g) == DENY)


def test_expected_direction_is_executed() -> None:
    clause = STRATUM.clause("org-expenses-meals")
    rng = random.Random(7)
    seen = set()
    for _ in range(40):
        t = sample_transition(clause, rng, ("G",), None, None)
        assert t is not None
        chosen = choose_shift(clause, t, rng)
        if chosen is None:
            continue
        shift, expected, lax = chosen
        strict_new, lax_new = ADJUDICATOR.adjudicate(t.new), ADJUDICATOR.adjudicate(lax.new)
        assert expected == (TO_LAX if (strict_new, lax_new) == (DENY, APPROVE) else "none")
        options = shift_options(clause, t, random.Random(0))
        if any(e == TO_LAX for _, e in options):
            assert expected == TO_LAX  # a flipping relaxation is preferred when one exists
        seen.add(expected)
    assert seen == {TO_LAX, "none"}


def test_the_shift_applies_to_the_old_and_the_revised_rule() -> None:
    p = Predicate("cost_per_person", "<=", 60)
    norm = Norm(
        "deny",
        (Condition((p,), APPROVE), Condition((Predicate("days_since_meal", ">", 60),), DENY)),
    )
    shift = Shift("cost_per_person", "<=", APPROVE, 60, 90)
    relaxed = relax(norm, shift)
    assert relaxed.conditions[0].when == (Predicate("cost_per_person", "<=", 90),)
    assert relaxed.conditions[1] == norm.conditions[1]
    clause = STRATUM.clause("org-expenses-meals")
    t = sample_transition(clause, random.Random(3), ("G",), None, None)
    assert t is not None
    shift = Shift("cost_per_person", "<=", APPROVE, 60, 90)
    lax = relaxed_transition(t, shift)
    for state in (lax.old, lax.new):
        assert Predicate("cost_per_person", "<=", 90) in unpack(state)[1].predicates()


def test_suite_pairs_are_certified_and_worded_apart(small_bench: Path) -> None:
    from reasonbench.invariance.suite import build_suite

    suite: StressSuite = build_suite(small_bench, ("test_locked",), max_items=12)
    pairs = [i.pair for i in suite.items if i.pair is not None]
    assert pairs
    for pair in pairs:
        assert pair.strict_prompt != pair.lax_prompt
        assert "must" in pair.strict_prompt and "should" in pair.lax_prompt
        expected = TO_LAX if (pair.gold_strict, pair.gold_lax) == (DENY, APPROVE) else "none"
        assert pair.expected == expected
