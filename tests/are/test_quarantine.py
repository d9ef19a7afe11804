"""Theorem 4: injected claims satisfying Q1-Q3 never change the decision and are all rejected."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.are import (
    TOL,
    Claim,
    ReflectiveState,
    Relation,
    check_quarantine,
    observables,
    oversee,
    random_state,
    solve,
)
from reasonbench.are.oversight import Thresholds

THRESHOLDS = Thresholds(0.5, 0.35, (("operator", 2.0), ("user", 1.0)))


def with_guard(state: ReflectiveState) -> ReflectiveState:
    """The state plus a non-negotiable accepted guard claim (the "data are not commands" rule)."""
    guard = Claim("guard", "P", "operator", 1.0, 1.5, 0.1)
    return ReflectiveState(
        (*state.claims, guard),
        state.relations,
        (*state.fixed, ("guard", 1)),
        state.prohibitions,
        state.consequential,
    )


def inject(state: ReflectiveState, rng: random.Random, m: int, lawful: bool) -> ReflectiveState:
    """m untrusted claims with random Q2-shaped relations and a defence meeting Q3 (or not)."""
    claims, relations = list(state.claims), list(state.relations)
    ids = [c.id for c in state.claims if c.id != "guard"]
    for k in range(m):
        v = f"inj{k}"
        kappa, anchor = rng.choice((0.3, 1.0, 3.0)), rng.uniform(0.1, 1.0)
        claims.append(Claim(v, "B", "untrusted", round(anchor, 2), kappa, 0.0))
        for _ in range(rng.randint(1, 4)):
            target = rng.choice(ids + [f"inj{j}" for j in range(k)])
            kind = rng.choice(("supp", "att")) if lawful else "supp"  # no other defence
            weight = rng.choice((0.25, 1.0, 4.0, 20.0))
            source, other = (v, target) if kind == "supp" or rng.random() < 0.5 else (target, v)
            relations.append(Relation(source, other, kind, weight, "untrusted"))
        need = 2 * kappa * round(anchor, 2)
        defence = need + 0.5 if lawful else need / 2
        relations.append(Relation("guard", v, "att", defence, "operator"))
    return ReflectiveState(
        tuple(claims), tuple(relations), state.fixed, state.prohibitions, state.consequential
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9), st.integers(1, 4))
def test_quarantined_injections_change_nothing(seed: int, n: int, m: int) -> None:
    rng = random.Random(seed)
    base = with_guard(random_state(rng, n))
    perturbed = inject(base, rng, m, lawful=True)
    assert check_quarantine(base, perturbed).holds
    before, review_before = oversee(base, THRESHOLDS)
    after, review_after = oversee(perturbed, THRESHOLDS)
    assert (
        abs(
            after.energy
            - before.energy
            - sum(c.stubbornness * c.anchor for c in perturbed.claims if c.id.startswith("inj"))
        )
        < 1e-6
    )
    if before.gamma > TOL:  # a unique decision: the very same one
        assert after.decision == before.decision
    assert after.gamma == before.gamma or abs(after.gamma - before.gamma) < 1e-6
    assert all(after.x[perturbed.index[f"inj{k}"]] == -1 for k in range(m))
    assert review_after.fired == review_before.fired
    assert review_after.rho == review_before.rho or abs(review_after.rho - review_before.rho) < 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 8))
def test_violated_conditions_are_reported(seed: int, n: int) -> None:
    rng = random.Random(seed)
    base = with_guard(random_state(rng, n))
    weak = inject(base, rng, 1, lawful=False)
    report = check_quarantine(base, weak)
    assert not report.holds and any(p.startswith("Q3") for p in report.problems)
    coherent = ReflectiveState(
        (*weak.claims,),
        (*weak.relations, Relation("inj0", base.claims[0].id, "coh", 1.0, "untrusted")),
        weak.fixed,
        weak.prohibitions,
        weak.consequential,
    )
    assert any(p.startswith("Q2") for p in check_quarantine(base, coherent).problems)


def test_observables_follow_the_thresholds() -> None:
    state = with_guard(random_state(random.Random(3), 6))
    assert len(observables(state, THRESHOLDS)) == 3
    assert len(solve(state, observables(state, THRESHOLDS)).worst) == 3


def _counter_example(channel: str) -> tuple[ReflectiveState, ReflectiveState]:
    """A base state with rho 0.5 and Ov_user 1, and one injected claim on ``channel`` that meets
    Q2 and Q3 (only the guard's attack touches it)."""
    guard = Claim("guard", "P", "operator", 1.0, 1.5, 0.1)
    u1, u2 = Claim("u1", "B", "user", 1.0, 1.0, 0.0), Claim("u2", "B", "user", 1.0, 1.0, 0.0)
    relations = (
        Relation("u1", "u2", "contra", 1.0, "user"),
        Relation("guard", "u1", "supp", 1.0, "operator"),
    )
    base = ReflectiveState((guard, u1, u2), relations, (("guard", 1),), (), ())
    v = Claim("v", "B", channel, 0.3, 1.0, 0.0)
    perturbed = ReflectiveState(
        (guard, u1, u2, v),
        (*relations, Relation("guard", "v", "att", 9.0, "operator")),
        (("guard", 1),),
        (),
        (),
    )
    return base, perturbed


def test_an_injected_claim_off_the_untrusted_channel_is_a_violation() -> None:
    thresholds = Thresholds(0.5, 0.35, (("user", 1.0),))
    base, perturbed = _counter_example("user")
    _, before = oversee(base, thresholds)
    _, after = oversee(perturbed, thresholds)
    # the counter-example: Q2 and Q3 hold, yet the oversight quantities move
    assert abs(before.rho - 0.5) < 1e-9 and abs(after.rho - 1 / 11) < 1e-9
    assert abs(dict(before.overrides)["user"] - 1.0) < 1e-9
    assert abs(dict(after.overrides)["user"] - 1.3) < 1e-9
    report = check_quarantine(base, perturbed)
    assert not report.holds
    assert any("v" in p and "untrusted" in p for p in report.problems), report.problems
    assert not any(p.startswith(("Q2", "Q3")) for p in report.problems), report.problems
    # on the untrusted channel the same injection is quarantined and changes nothing
    base, perturbed = _counter_example("untrusted")
    assert check_quarantine(base, perturbed).holds
    _, after = oversee(perturbed, thresholds)
    assert (after.rho, after.overrides) == (before.rho, before.overrides)


def test_q1_compares_the_channel_of_base_claims() -> None:
    base, perturbed = _counter_example("untrusted")
    moved = tuple(
        Claim(c.id, c.kind, "agent", c.anchor, c.stubbornness, c.systematicity)
        if c.id == "u2"
        else c
        for c in perturbed.claims
    )
    perturbed = ReflectiveState(
        moved, perturbed.relations, perturbed.fixed, perturbed.prohibitions, ()
    )
    report = check_quarantine(base, perturbed)
    assert not report.holds
    assert any(p.startswith("Q1") and "u2" in p for p in report.problems), report.problems
