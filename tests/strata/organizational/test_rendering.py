"""Rendering from the rule objects: every condition stated, order and family are parameters."""

from __future__ import annotations

import random
import statistics
from itertools import permutations

import pytest

from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum, audit_all
from reasonbench.strata.organizational.render import (
    format_value,
    item_sentences,
    norm_text,
    predicate_text,
    scope_text,
    subject_words,
)

ORDERS = list(permutations(("G", "N", "A")))


def test_audit_passes_for_every_clause(stratum: OrganizationalStratum) -> None:
    audits = audit_all(stratum.clause_set.clauses, stratum.templates)
    assert [a.unit_id for a in audits if not a.ok] == []
    assert all(a.labels == ("approve", "deny", "refer") for a in audits)


def test_rendering_covers_every_condition_of_every_revised_rule(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    # Not only the clauses as written: every rule and scope an operator produced, too.
    for transition in transitions[::3]:
        clause = stratum.clause(transition.unit_id)
        for family_name in stratum.template_families:
            family = stratum.templates.family(family_name)
            text = stratum.render(transition, family_name, ("G", "N", "A")).text
            for state in (transition.old, transition.new):
                _, norm, scope = state.components
                sentences = item_sentences(clause, norm, family)
                assert norm_text(clause, norm, family) in text
                for item, sentence in zip(norm.items(), sentences, strict=True):
                    assert sentence in text
                    for p in item.when:
                        spec = clause.spec(p.field)
                        phrase = predicate_text(spec, p, family)
                        assert phrase in sentence
                        if p.op not in ("is",):
                            values = p.members if p.op in ("in", "not_in") else (p.threshold,)
                            assert all(format_value(spec, v, family) in phrase for v in values)
                assert scope_text(clause, scope, family) in text


def test_changed_and_unchanged_sections(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    for transition in transitions[:60]:
        for family_name in stratum.template_families:
            family = stratum.templates.family(family_name)
            text = stratum.render(transition, family_name, ("G", "N", "A")).text
            changed = sum(transition.old[s] != transition.new[s] for s in "GNA")
            assert text.count(family["before"]) == changed == text.count(family["after"])
            assert text.count(family["same"]) == 3 - changed


def test_source_order_only_permutes_sections(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    for transition in transitions[:40]:
        for family_name in stratum.template_families:
            renders = [stratum.render(transition, family_name, order) for order in ORDERS]
            blocks = [r.text.split("\n\n") for r in renders]
            assert all(b[0] == blocks[0][0] for b in blocks)  # same header
            assert all(sorted(b[1:]) == sorted(blocks[0][1:]) for b in blocks)
            assert len({r.text for r in renders}) == 6
            assert [r.source_order for r in renders] == ORDERS
            family = stratum.templates.family(family_name)
            words = subject_words(stratum.clause(transition.unit_id))
            for r, order in zip(renders, ORDERS, strict=True):
                headings = [block.split("\n")[0] for block in r.text.split("\n\n")[1:]]
                assert headings == [family[f"heading_{s}"].format(**words) for s in order]


def test_families_differ_and_are_compact(
    stratum: OrganizationalStratum, transitions: list[Transition]
) -> None:
    for family_name in stratum.template_families:
        words = [
            len(stratum.render(t, family_name, ("G", "N", "A")).text.split()) for t in transitions
        ]
        assert statistics.median(words) < 300
    sample = transitions[0]
    texts = {stratum.render(sample, f, ("G", "N", "A")).text for f in stratum.template_families}
    assert len(texts) == 3
    with pytest.raises(KeyError, match="unknown template family"):
        stratum.render(sample, "tweet", ("G", "N", "A"))
    with pytest.raises(ValueError, match="permutation"):
        stratum.render(sample, "memo", ("G", "N"))


def test_rendering_is_deterministic(stratum: OrganizationalStratum) -> None:
    clause = stratum.units(0)[0]
    a = stratum.sample_transition(clause, random.Random(1), ("G", "N"))
    b = stratum.sample_transition(clause, random.Random(1), ("G", "N"))
    assert a is not None and b is not None
    assert stratum.render(a, "memo", ("N", "A", "G")) == stratum.render(b, "memo", ("N", "A", "G"))
