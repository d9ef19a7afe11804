"""Shared fixtures and strategies for the logical-stratum tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from reasonbench.strata.logical import Authority, Facts, LogicalStratum, Rule, Rules, World
from reasonbench.strata.logical.world import VARIABLE, Atom

ENTITIES = ("a", "b", "c")
PREDICATES = ("p", "q", "r", "s")
RELATION = "e"


@pytest.fixture(scope="session")
def stratum() -> LogicalStratum:
    return LogicalStratum()


@pytest.fixture(scope="session")
def worlds(stratum: LogicalStratum) -> list[World]:
    return stratum.units(0)


def ground_atoms(entities: tuple[str, ...] = ENTITIES) -> st.SearchStrategy[Atom]:
    unary = st.tuples(st.sampled_from(PREDICATES), st.sampled_from(entities))
    binary = st.tuples(st.just(RELATION), st.sampled_from(entities), st.sampled_from(entities))
    return st.one_of(unary, binary)


def variable_atoms() -> st.SearchStrategy[Atom]:
    """Atoms that mention ``X`` (so a general rule's range restriction holds by construction)."""
    unary = st.tuples(st.sampled_from(PREDICATES), st.just(VARIABLE))
    terms = st.sampled_from((*ENTITIES, VARIABLE))
    binary = st.one_of(
        st.tuples(st.just(RELATION), st.just(VARIABLE), terms),
        st.tuples(st.just(RELATION), terms, st.just(VARIABLE)),
    )
    return st.one_of(unary, binary)


@st.composite
def rules_of(draw: st.DrawFn, rule_id: int) -> Rule:
    """A general rule (X in its conclusion and first premise) or a ground rule."""
    general = draw(st.booleans())
    atoms = variable_atoms() if general else ground_atoms()
    others = st.one_of(variable_atoms(), ground_atoms()) if general else ground_atoms()
    conclusion = draw(atoms)
    first = draw(atoms)
    if first == conclusion:  # a rule may not conclude its own premise: shift the predicate
        first = ("q" if first[0] == "p" else "p", VARIABLE if general else first[-1])
    rest = [a for a in draw(st.lists(others, max_size=2)) if a not in (first, conclusion)]
    return Rule(rule_id, tuple(dict.fromkeys([first, *rest])), conclusion)


@st.composite
def rule_sets(draw: st.DrawFn, max_rules: int = 6) -> Rules:
    n = draw(st.integers(0, max_rules))
    return Rules.of(draw(rules_of(i)) for i in range(1, n + 1))


@st.composite
def small_states(draw: st.DrawFn) -> tuple[Facts, Rules, Authority]:
    """Random small worlds: a few facts, rules with at most one variable, a random mask."""
    facts = Facts.of(draw(st.lists(ground_atoms(), max_size=6)))
    rules = draw(rule_sets())
    mask = Authority.of(i for i in rules.ids() if draw(st.booleans()))
    return facts, rules, mask


def rng_for(seed: int) -> random.Random:
    return random.Random(f"test:{seed}")
