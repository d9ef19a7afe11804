"""Loading validates everything and fails with a message naming the clause and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from reasonbench.strata.organizational import ClauseError, OrganizationalStratum, load_clause_set
from reasonbench.strata.organizational.templates import load_templates


def test_all_45_clauses_load_with_stable_ids(stratum: OrganizationalStratum) -> None:
    units = stratum.units(0)
    assert len(units) == 45
    ids = [u.unit_id for u in units]
    assert ids == sorted(ids) and len(set(ids)) == 45
    assert all(i.startswith("org-") for i in ids)
    assert stratum.units(123) == units  # fixed data: the seed does not matter
    assert len({u.domain for u in units}) >= 14


def test_every_case_field_has_a_type_and_range(stratum: OrganizationalStratum) -> None:
    for clause in stratum.units(0):
        for spec in clause.fields:
            if spec.numeric:
                assert spec.minimum < spec.maximum and spec.step >= 1
            elif spec.kind == "enum":
                assert len(spec.values) >= 2
            else:
                assert spec.kind == "bool" and spec.yes and spec.no


def edit_clause(root: Path, file: str, index: int, edit: object) -> None:
    path = root / file
    data = yaml.safe_load(path.read_text())
    edit(data["clauses"][index])  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def load_error(root: Path) -> str:
    with pytest.raises(ClauseError) as info:
        load_clause_set(root)
    return str(info.value)


def _rule_field(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["conditions"][0]["when"][0]["field"] = "cost_per_guest"


def _off_grid(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["conditions"][0]["when"][0]["value"] = 61


def _constant(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["conditions"][0]["when"][0]["value"] = 300


def _enum_value(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["exceptions"][0]["when"][0]["value"] = ["brunch"]


def _scope_everything(clause: dict) -> None:  # type: ignore[type-arg]
    clause["scope"][1]["value"] = ["EU", "UK", "US", "APAC"]


def _bad_kind(clause: dict) -> None:  # type: ignore[type-arg]
    clause["fields"][1]["kind"] = "float"


def _bool_scope(clause: dict) -> None:  # type: ignore[type-arg]
    clause["scope"].append({"field": "itemised_receipt", "op": "in", "value": [True]})


def _typo_key(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["defualt"] = clause["rule"].pop("default")


def _bad_outcome(clause: dict) -> None:  # type: ignore[type-arg]
    clause["rule"]["conditions"][0]["outcome"] = "refer"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_rule_field, "field 'cost_per_guest'"),
        (_off_grid, "threshold 61 not on the field's grid"),
        (_constant, "makes '<=' constant"),
        (_enum_value, "value(s) ['brunch'] not in enum"),
        (_scope_everything, "admits every value"),
        (_bad_kind, "kind must be one of"),
        (_bool_scope, "not allowed for a bool field"),
        (_typo_key, "unknown key(s) ['defualt']"),
        (_bad_outcome, "outcome must be one of"),
    ],
)
def test_invalid_clause_names_clause_and_problem(
    data_copy: Path, edit: object, message: str
) -> None:
    edit_clause(data_copy, "expenses.yaml", 0, edit)
    error = load_error(data_copy)
    assert "clause 'org-expenses-meals'" in error and "expenses.yaml" in error
    assert message in error


def test_field_error_names_the_field(data_copy: Path) -> None:
    edit_clause(data_copy, "expenses.yaml", 0, lambda c: c["fields"][1].update(step=7))
    error = load_error(data_copy)
    assert "clause 'org-expenses-meals'" in error and "field 'cost_per_person'" in error


def test_yes_no_keys_are_rejected_with_a_hint(data_copy: Path) -> None:
    path = data_copy / "expenses.yaml"
    path.write_text(path.read_text().replace("if_true:", "yes:", 1))
    assert "unknown key(s) [True]" in load_error(data_copy)


def test_duplicate_ids_and_bad_yaml(data_copy: Path) -> None:
    edit_clause(data_copy, "expenses.yaml", 1, lambda c: c.update(id="org-expenses-meals"))
    assert "defined twice" in load_error(data_copy)
    (data_copy / "expenses.yaml").write_text("domain: x\nclauses: [\n")
    assert "invalid YAML" in load_error(data_copy)


def test_distractor_pool_must_not_clash(data_copy: Path) -> None:
    path = data_copy / "common.yaml"
    data = yaml.safe_load(path.read_text())
    data["distractor_fields"][0]["name"] = "itemised_receipt"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert "also clause fields" in load_error(data_copy)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda f: f["memo"].update(pred_le="{label} is at most {amount}"), "unknown placeholder"),
        (lambda f: f["memo"].pop("scope"), "missing key(s) ['scope']"),
        (lambda f: f["memo"].update(fact="{label"), "malformed template"),
    ],
)
def test_invalid_templates_name_family_and_key(data_copy: Path, edit: object, message: str) -> None:
    path = data_copy / "templates.yaml"
    data = yaml.safe_load(path.read_text())
    edit(data["families"])  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ClauseError) as info:
        load_templates(data_copy)
    assert "family 'memo'" in str(info.value) and message in str(info.value)


def test_template_families(stratum: OrganizationalStratum) -> None:
    assert stratum.template_families == ("memo", "handbook", "legal")
