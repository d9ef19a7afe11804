"""Forward chaining against a brute-force closure; proof depth is minimal; verdict semantics."""

from __future__ import annotations

from hypothesis import given, settings

from reasonbench.strata.logical import Authority, Facts, Rule, Rules, closure, verdict
from reasonbench.strata.logical.chaining import authorised, proof
from reasonbench.strata.logical.world import VARIABLE, Atom
from tests.strata.logical.conftest import ENTITIES, ground_atoms, small_states

EXTRA = ("d",)  # an entity no fact or rule mentions: grounding over it must add nothing


def substitute(atom: Atom, entity: str) -> Atom:
    return tuple(entity if t == VARIABLE else t for t in atom)


def brute_force(facts: Facts, rules: Rules) -> dict[Atom, int]:
    """Naive rounds over every substitution; round k derives exactly the atoms of depth <= k."""
    depth = dict.fromkeys(facts.atoms, 0)
    level = 0
    while True:
        level += 1
        known = set(depth)
        fresh = {}
        for rule in rules.rules:
            for entity in (*ENTITIES, *EXTRA):
                premises = [substitute(p, entity) for p in rule.premises]
                head = substitute(rule.conclusion, entity)
                if head not in known and all(p in known for p in premises):
                    fresh[head] = level
        if not fresh:
            return depth
        depth.update(fresh)


@settings(max_examples=150, deadline=None)
@given(small_states())
def test_closure_and_depths_match_brute_force(state: tuple[Facts, Rules, Authority]) -> None:
    facts, rules, mask = state
    assert closure(facts, rules).depth == brute_force(facts, rules)
    allowed = authorised(rules, mask)
    assert closure(facts, allowed).depth == brute_force(facts, allowed)
    assert closure(facts, rules, mask).depth == brute_force(facts, allowed)  # gated program


@settings(max_examples=120, deadline=None)
@given(small_states(), ground_atoms())
def test_verdict_semantics(state: tuple[Facts, Rules, Authority], query: Atom) -> None:
    facts, rules, mask = state
    under_authority = brute_force(facts, Rules(tuple(r for r in rules.rules if r.id in mask)))
    expected = (
        "holds"
        if query in under_authority
        else "refer"
        if query in brute_force(facts, rules)
        else "fails"
    )
    assert verdict(facts, rules, mask, query) == expected


@settings(max_examples=120, deadline=None)
@given(small_states())
def test_proofs_are_valid_and_as_shallow_as_the_depth(
    state: tuple[Facts, Rules, Authority],
) -> None:
    facts, rules, _ = state
    result = closure(facts, rules)
    by_id = {r.id: r for r in rules.rules}
    for atom, depth in result.depth.items():
        steps = proof(result, atom)
        if depth == 0:
            assert atom in facts and steps == []
            continue
        height: dict[Atom, int] = dict.fromkeys(facts.atoms, 0)
        for rule_id, premises, head in steps:
            rule = by_id[rule_id]
            # The step is an instance of its rule for some entity (or the ground rule itself).
            assert any(
                set(premises) == {substitute(p, e) for p in rule.premises}
                and head == substitute(rule.conclusion, e)
                for e in (*ENTITIES, VARIABLE)
            )
            assert all(p in height for p in premises)  # premises are proved before use
            height[head] = 1 + max(height[p] for p in premises)
        assert height[atom] == depth  # the recorded proof is a shallowest one


def test_worked_example_depths_and_verdicts() -> None:
    facts = Facts.of([("big", "bob"), ("red", "bob")])
    rules = Rules.of(
        [
            Rule(1, (("big", "X"), ("red", "X")), ("kind", "X")),
            Rule(2, (("kind", "X"),), ("nice", "X")),
            Rule(3, (("nice", "bob"),), ("likes", "anne", "bob")),
        ]
    )
    depth = closure(facts, rules).depth
    assert depth[("kind", "bob")] == 1 and depth[("nice", "bob")] == 2
    assert depth[("likes", "anne", "bob")] == 3
    assert verdict(facts, rules, Authority.of([1, 2, 3]), ("nice", "bob")) == "holds"
    assert verdict(facts, rules, Authority.of([1]), ("nice", "bob")) == "refer"
    assert verdict(facts, rules, Authority.of([]), ("big", "bob")) == "holds"  # a given fact
    assert verdict(facts, rules, Authority.of([1, 2, 3]), ("nice", "anne")) == "fails"
