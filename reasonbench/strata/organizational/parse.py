"""Parsing plain data (YAML or JSON) into fields, predicates, norms and scopes, with clear errors.

Every error is a :class:`ClauseError` whose message names where it happened (file, clause, field
or rule path), so a broken data file is fixed from the message alone. The same parsers read the
state JSON, so a state another engine wrote is validated exactly like a clause file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.strata.organizational.model import (
    NUMERIC_OPS,
    OPS,
    OUTCOMES,
    Condition,
    Norm,
    Predicate,
    PredicateValue,
    Scope,
)
from reasonbench.strata.organizational.schema import KINDS, NUMERIC_KINDS, FieldSpec
from reasonbench.validate import Checks

FIELD_KEYS = {"name", "kind", "label", "min", "max", "step", "unit", "unit_one", "currency"}
FIELD_KEYS |= {"values", "if_true", "if_false", "desired"}
CURRENCIES = ("EUR", "USD", "GBP")


class ClauseError(ValueError):
    """A clause, template or state document is invalid; the message says where and why."""


_CHECKS = Checks(ClauseError)  # the project's one validation kit, raising this family's error
need = _CHECKS.need
mapping = _CHECKS.record
integer = _CHECKS.integer
text = _CHECKS.text


def parse_field(data: Any, where: str) -> FieldSpec:
    raw = mapping(data, where, FIELD_KEYS, ("name", "kind", "label"))
    name = text(raw["name"], where)
    where = f"{where} (field {name!r})"
    kind = raw["kind"]
    need(kind in KINDS, where, f"kind must be one of {list(KINDS)}, got {kind!r}")
    label = text(raw["label"], f"{where}.label")
    if kind == "bool":
        # Not "yes"/"no": YAML 1.1 reads those bare keys as booleans.
        keys = {"name", "kind", "label", "if_true", "if_false", "desired"}
        mapping(raw, where, keys, ("if_true", "if_false"))
        desired = raw.get("desired", True)
        need(isinstance(desired, bool), f"{where}.desired", "expected true or false")
        yes, no = (
            text(raw["if_true"], f"{where}.if_true"),
            text(raw["if_false"], f"{where}.if_false"),
        )
        return FieldSpec(name, kind, label, yes=yes, no=no, desired=desired)
    if kind == "enum":
        mapping(raw, where, {"name", "kind", "label", "values"}, ("values",))
        values = raw["values"]
        need(isinstance(values, list) and len(values) >= 2, where, "values: need >= 2 values")
        items = tuple(text(v, f"{where}.values") for v in values)
        need(len(set(items)) == len(items), where, f"values repeat: {list(items)}")
        return FieldSpec(name, kind, label, values=items)
    unit_key = "currency" if kind == "money" else "unit"
    mapping(raw, where, {"name", "kind", "label", "min", "max", "step", unit_key, "unit_one"})
    lo, hi = integer(raw.get("min"), f"{where}.min"), integer(raw.get("max"), f"{where}.max")
    step = integer(raw.get("step", 1), f"{where}.step")
    need(
        step >= 1 and lo < hi and (hi - lo) % step == 0, where, f"bad range {lo}..{hi} step {step}"
    )
    need((hi - lo) // step >= 3, where, "range needs at least 4 grid values")
    # A plain count may be unitless ("floor 3"); money needs a currency, durations a unit.
    unitless = kind == "int" and unit_key not in raw
    unit = "" if unitless else text(raw.get(unit_key), f"{where}.{unit_key}")
    if kind == "money":
        need(unit in CURRENCIES, where, f"currency must be one of {list(CURRENCIES)}")
    unit_one = raw.get("unit_one", unit[:-1] if unit.endswith("s") else unit)
    unit_one = "" if unitless else text(unit_one, f"{where}.unit_one")
    return FieldSpec(name, kind, label, lo, hi, step, unit, unit_one)


def parse_predicate(
    data: Any, where: str, fields: Mapping[str, FieldSpec] | None, scope: bool = False
) -> Predicate:
    """A predicate, type-checked against the schema (thresholds on the grid, in range).

    With ``fields=None`` (a state document, which carries no schema) only the structure is
    checked: a known operator and a value of the type that operator needs.
    """
    raw = mapping(data, where, {"field", "op", "value"}, ("field", "op", "value"))
    name, op, value = text(raw["field"], where), raw["op"], raw["value"]
    if fields is None:
        return _structural(name, op, value, f"{where} (field {name!r})", scope)
    need(name in fields, where, f"unknown field {name!r} (schema: {sorted(fields)})")
    spec = fields[name]
    where = f"{where} (field {name!r})"
    allowed = _scope_ops(spec) if scope else _ops_for(spec)
    need(
        op in allowed,
        where,
        f"op {op!r} not allowed for a {spec.kind} field here; use {list(allowed)}",
    )
    predicate = _structural(name, op, value, where, scope)
    if op in ("in", "not_in"):
        bad = [v for v in predicate.members if v not in spec.values]
        need(not bad, where, f"value(s) {bad} not in enum {list(spec.values)}")
    elif op == "between":
        lo, hi = predicate.band
        need(spec.admits(lo) and spec.admits(hi), where, f"band {value} outside range/grid")
    elif op != "is":
        threshold = predicate.threshold
        lo, hi = spec.threshold_bounds(op)
        need(spec.admits(threshold), where, f"threshold {threshold} not on the field's grid/range")
        need(lo <= threshold <= hi, where, f"threshold {threshold} makes '{op}' constant")
    return predicate


def _structural(name: str, op: Any, value: Any, where: str, scope: bool) -> Predicate:
    allowed = ("in", "between") if scope else tuple(o for o in OPS if o != "between")
    need(op in allowed, where, f"op {op!r} not allowed here; use {list(allowed)}")
    parsed: PredicateValue
    if op in ("in", "not_in"):
        need(isinstance(value, list) and len(value) >= 1, where, "value must be a non-empty list")
        parsed = tuple(text(v, where) for v in value)
        need(len(set(parsed)) == len(parsed), where, f"values repeat: {list(parsed)}")
    elif op == "is":
        need(isinstance(value, bool), where, f"value must be true or false, got {value!r}")
        parsed = bool(value)
    elif op == "between":
        need(isinstance(value, list) and len(value) == 2, where, "value must be [low, high]")
        lo, hi = integer(value[0], where), integer(value[1], where)
        need(lo <= hi, where, f"band {value} has low > high")
        parsed = (lo, hi)
    else:
        parsed = integer(value, where)
    return Predicate(name, str(op), parsed)


def _scope_ops(spec: FieldSpec) -> tuple[str, ...]:
    # Scope dimensions are memberships (case types, departments, roles, regions) or bands.
    if spec.kind in NUMERIC_KINDS:
        return ("between",)
    return ("in",) if spec.kind == "enum" else ()


def _ops_for(spec: FieldSpec) -> tuple[str, ...]:
    if spec.kind in NUMERIC_KINDS:
        return NUMERIC_OPS
    return ("is",) if spec.kind == "bool" else ("in", "not_in")


def parse_condition(data: Any, where: str, fields: Mapping[str, FieldSpec] | None) -> Condition:
    raw = mapping(data, where, {"when", "outcome"}, ("when", "outcome"))
    need(raw["outcome"] in OUTCOMES, where, f"outcome must be one of {list(OUTCOMES)}")
    when = raw["when"]
    need(isinstance(when, list) and len(when) >= 1, where, "when: need a non-empty list")
    preds = tuple(parse_predicate(p, f"{where}.when[{i}]", fields) for i, p in enumerate(when))
    return Condition(preds, str(raw["outcome"]))


def parse_norm(data: Any, where: str, fields: Mapping[str, FieldSpec] | None) -> Norm:
    raw = mapping(data, where, {"default", "conditions", "exceptions"}, ("default", "conditions"))
    need(raw["default"] in OUTCOMES, where, f"default must be one of {list(OUTCOMES)}")
    items: dict[str, tuple[Condition, ...]] = {}
    for key in ("conditions", "exceptions"):
        listed = raw.get(key, [])
        need(isinstance(listed, list), f"{where}.{key}", "expected a list")
        items[key] = tuple(
            parse_condition(c, f"{where}.{key}[{i}]", fields) for i, c in enumerate(listed)
        )
    need(len(items["conditions"]) >= 1, where, "a rule needs at least one condition")
    return Norm(str(raw["default"]), items["conditions"], items["exceptions"])


def parse_scope(data: Any, where: str, fields: Mapping[str, FieldSpec] | None) -> Scope:
    need(isinstance(data, list) and len(data) >= 1, where, "scope: need a non-empty list of tests")
    tests = tuple(
        parse_predicate(t, f"{where}[{i}]", fields, scope=True) for i, t in enumerate(data)
    )
    names = [t.field for t in tests]
    need(len(set(names)) == len(names), where, f"a field is tested twice: {names}")
    return Scope(tests)


def predicate_json(predicate: Predicate) -> dict[str, Any]:
    value: Any = list(predicate.value) if isinstance(predicate.value, tuple) else predicate.value
    return {"field": predicate.field, "op": predicate.op, "value": value}


def norm_json(norm: Norm) -> dict[str, Any]:
    def item(c: Condition) -> dict[str, Any]:
        return {"outcome": c.outcome, "when": [predicate_json(p) for p in c.when]}

    return {
        "default": norm.default,
        "conditions": [item(c) for c in norm.conditions],
        "exceptions": [item(c) for c in norm.exceptions],
    }
