"""The clause-set audit checks from the objects, so it catches what a reader's eye would miss."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from reasonbench.strata.organizational import (
    Condition,
    OrganizationalStratum,
    Predicate,
    audit_clause,
)
from reasonbench.strata.organizational.templates import load_templates
from reasonbench.strata.template_set import TemplateSet


def broken_templates(data_copy: Path, key: str, template: str) -> TemplateSet:
    path = data_copy / "templates.yaml"
    data = yaml.safe_load(path.read_text())
    data["families"]["handbook"][key] = template
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_templates(data_copy)


def test_audit_catches_a_template_that_drops_the_threshold(
    stratum: OrganizationalStratum, data_copy: Path
) -> None:
    templates = broken_templates(data_copy, "pred_le", "the {label} is not too high")
    audit = audit_clause(stratum.clause("org-expenses-meals"), templates)
    assert not audit.ok
    assert any("handbook: rule item 0: value '€60' not stated" in p for p in audit.problems)


def test_audit_catches_a_template_that_drops_conditions(
    stratum: OrganizationalStratum, data_copy: Path
) -> None:
    templates = broken_templates(data_copy, "exception_approve", "Exception {n}: approved.")
    audit = audit_clause(stratum.clause("org-expenses-meals"), templates)
    assert any("rule item 2: predicate on 'meal_type' not stated" in p for p in audit.problems)


def test_audit_catches_an_ambiguous_outcome(
    stratum: OrganizationalStratum, data_copy: Path
) -> None:
    templates = broken_templates(data_copy, "condition_deny", "Decided when {preds}.")
    audit = audit_clause(stratum.clause("org-expenses-meals"), templates)
    assert any("outcome 'deny' not stated" in p for p in audit.problems)


def test_audit_catches_unreachable_labels_and_unknown_fields(
    stratum: OrganizationalStratum,
) -> None:
    clause = stratum.clause("org-expenses-meals")
    # An exception that approves everything makes 'deny' unreachable.
    always = Condition((Predicate("meal_type", "in", clause.spec("meal_type").values),), "approve")
    audit = audit_clause(
        replace(clause, rule=replace(clause.rule, exceptions=(always,))), stratum.templates
    )
    assert "no grounds yield 'deny'" in audit.problems
    ghost = Condition((Predicate("ghost_field", "is", True),), "deny")
    broken = replace(clause, rule=replace(clause.rule, conditions=(ghost,)))
    assert (
        "mentions unknown field 'ghost_field'" in audit_clause(broken, stratum.templates).problems
    )
