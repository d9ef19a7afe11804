"""Every rewrite of every clause is certified by execution, and certification has teeth."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from reasonbench.core.cube import execute_cube
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OrganizationalStratum
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR
from reasonbench.strata.organizational.compose import sample_transition
from reasonbench.strata.organizational.render import norm_text
from reasonbench.strata.organizational.rewrites.certify import (
    CertificationError,
    Certifier,
    canonical_norm,
    canonical_scope,
)
from reasonbench.strata.organizational.rewrites.render import _blocks, rewrite_prompt, rule_text
from reasonbench.strata.organizational.rewrites.wording import (
    BLOCKS,
    RewriteSet,
    Wording,
    load_rewrites,
)

# One-, two- and three-source changes: operators add, move and remove exceptions, thresholds,
# requirements and scope tests, so the rewritten texts cover far more than the clause's own rule.
SOURCES = (("N",), ("N", "A"), ("G", "N", "A"))


@cache
def stratum() -> OrganizationalStratum:
    return OrganizationalStratum()


@cache
def rewrites() -> RewriteSet:
    return load_rewrites()


@cache
def transitions(unit_id: str) -> tuple[Transition, ...]:
    """Seeded draws, plus the unchanged base state of the first (the clause's rule as sampled)."""
    clause = stratum().clause(unit_id)
    rng = random.Random(f"certify:{unit_id}")
    drawn = [sample_transition(clause, rng, s, None, None) for s in SOURCES]
    assert all(t is not None for t in drawn), f"{unit_id}: the sampler returned None"
    out = [t for t in drawn if t is not None]
    return (*out, Transition(unit_id, out[0].old, out[0].old, ()))


CLAUSES = [c.unit_id for c in OrganizationalStratum().clause_set.clauses]


@pytest.mark.parametrize("unit_id", CLAUSES)
def test_every_variant_of_every_clause_is_certified(unit_id: str) -> None:
    clause = stratum().clause(unit_id)
    for family in rewrites().templates.names:
        for variant in rewrites().variants:
            certifier = Certifier(clause, rewrites().wording(variant.name, family))
            for t in transitions(unit_id):
                gold = execute_cube(ADJUDICATOR, t.old, t.new)
                assert certifier.certify(t, gold) == gold  # raises CertificationError otherwise


def test_every_certified_variant_changes_the_text() -> None:
    clause = stratum().clause(CLAUSES[0])
    t = transitions(CLAUSES[0])[0]
    for family in rewrites().templates.names:
        base = rewrite_prompt(
            clause, stratum().specs(clause), t, rewrites().base(family), ("G", "N", "A")
        )
        for variant in rewrites().variants:
            wording = rewrites().wording(variant.name, family)
            prompt = rewrite_prompt(clause, stratum().specs(clause), t, wording, ("G", "N", "A"))
            assert prompt != base, (variant.name, family)
            # the header and the facts are the benchmark's; only the policy sections differ
            assert prompt.split("\n\n")[:2] == base.split("\n\n")[:2]


@pytest.mark.parametrize("unit_id", CLAUSES[::9])
def test_base_wording_is_the_benchmark_renderer(unit_id: str) -> None:
    clause = stratum().clause(unit_id)
    for family in rewrites().templates.names:
        for t in transitions(unit_id):
            order = ("A", "G", "N")
            expected = stratum().render(t, family, order).text
            assert (
                rewrite_prompt(clause, stratum().specs(clause), t, rewrites().base(family), order)
                == expected
            )
            # the block renderer of other layouts, in the standard order, is the benchmark's too
            fam = rewrites().templates.family(family)
            blocks = _blocks(clause, t.new.components[1], fam)
            assert " ".join(s for b in BLOCKS for s in blocks[b]) == norm_text(
                clause, t.new.components[1], fam
            )


def _broken(template_overrides: dict[str, str], family: str = "memo") -> Wording:
    base = rewrites().base(family)
    return replace(base, variant="broken", family={**base.family, **template_overrides})


def _certify(wording: Wording, unit_id: str = "org-expenses-meals") -> None:
    clause = stratum().clause(unit_id)
    for t in transitions(unit_id):
        Certifier(clause, wording).certify(t, execute_cube(ADJUDICATOR, t.old, t.new))


@pytest.mark.parametrize(
    ("overrides", "why"),
    [
        ({"condition_deny": "Approve if {preds}."}, "several readings"),  # crosses deontic families
        ({"pred_le": "{label} is below {value}"}, "several readings"),  # <= worded as <
        ({"default_deny": "Otherwise approve."}, "several readings"),  # default flipped
        ({"pred_le": "{label} is at most a limit"}, "no reading"),  # threshold dropped
        ({"exception_approve": "Exception: approve if {preds}."}, "no reading"),  # priority lost
        ({"condition_approve": "Approve."}, "another rule"),  # conditions dropped
    ],
)
def test_certification_rejects_meaning_changes(overrides: dict[str, str], why: str) -> None:
    with pytest.raises(CertificationError, match=why):
        _certify(_broken(overrides))


def test_certification_rejects_lost_exception_priority() -> None:
    # two exceptions whose numbers are not written cannot be told apart in priority
    clause = next(c for c in stratum().clause_set.clauses if len(c.rule.exceptions) > 1)
    wording = _broken({"exception_approve": "Exception: approve if {preds}.",
                       "exception_deny": "Exception: deny if {preds}."})  # fmt: skip
    t = transitions(clause.unit_id)[-1]
    with pytest.raises(CertificationError):
        Certifier(clause, wording).certify(t, execute_cube(ADJUDICATOR, t.old, t.new))


def test_reordering_keeps_the_compiled_rule_but_not_the_tuple() -> None:
    clause = stratum().clause("org-expenses-meals")
    wording = rewrites().wording("T1-reorder", "memo")
    read = Certifier(clause, wording).norm(clause.rule)
    assert read != clause.rule and canonical_norm(read) == canonical_norm(clause.rule)
    assert rule_text(clause, read, wording, reorder=False) == rule_text(
        clause, clause.rule, wording
    )


def test_rules_sharing_a_text_do_not_share_a_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    # a lossy rewrite: the rule with the other default renders to the clause rule's text
    from reasonbench.strata.organizational.rewrites import certify

    clause = stratum().clause("org-expenses-meals")
    wording = rewrites().wording("T1-reorder", "memo")
    rule = clause.rule
    other = replace(rule, default="approve" if rule.default == "deny" else "deny")
    assert canonical_norm(other) != canonical_norm(rule)
    original = certify.rule_text

    def lossy(clause_: object, norm: object, wording_: Wording, reorder: bool = True) -> str:
        return original(clause, rule if norm == other else norm, wording_, reorder)  # type: ignore[arg-type]

    monkeypatch.setattr(certify, "rule_text", lossy)
    certifier = Certifier(clause, wording)
    assert canonical_norm(certifier.norm(rule)) == canonical_norm(rule)
    with pytest.raises(CertificationError, match="another rule"):
        certifier.norm(other)  # same text, cached reading: still compared with this rule
    with pytest.raises(CertificationError, match="another rule"):
        Certifier(clause, wording).norm(other)  # and without the cache


def test_scopes_sharing_a_text_do_not_share_a_certificate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from reasonbench.strata.organizational.rewrites import certify

    clause = next(c for c in stratum().clause_set.clauses if c.scope.tests)
    wording = rewrites().wording("T1-reorder", "memo")
    scope = clause.scope
    other = replace(scope, tests=scope.tests[1:])
    original = certify.scope_rule_text

    def lossy(clause_: object, s: object, wording_: Wording, reorder: bool = True) -> str:
        return original(clause, scope if s == other else s, wording_, reorder)  # type: ignore[arg-type]

    monkeypatch.setattr(certify, "scope_rule_text", lossy)
    certifier = Certifier(clause, wording)
    assert canonical_scope(certifier.scope(scope)) == canonical_scope(scope)
    with pytest.raises(CertificationError, match="another scope"):
        certifier.scope(other)
