"""Rendering templates as validated data (``data/clauses/templates.yaml``).

A *family* is one complete wording of all three sources (facts, rule, scope); families differ in
sentence structure, not only in words, so a held-out family is a real linguistic shift. Every
family must define every key below, and each template may only use the placeholders listed for
its key; loading fails with the family, key and offending placeholder named.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from reasonbench.strata.organizational.loader import DATA_DIR, read_yaml
from reasonbench.strata.organizational.parse import ClauseError, mapping, need
from reasonbench.strata.template_set import TemplateSet, placeholders

PRED = frozenset({"label", "value"})
LIST = frozenset({"label", "values"})
SUBJECT = frozenset({"subject", "subject_plural"})
RULE = SUBJECT | {"preds"}
EXCEPTION = RULE | {"n"}
KEYS: Mapping[str, frozenset[str]] = {
    "header": frozenset({"title"}) | SUBJECT,
    "heading_G": SUBJECT,
    "heading_N": SUBJECT,
    "heading_A": SUBJECT,
    "before": frozenset(),
    "after": frozenset(),
    "same": frozenset(),
    "fact": PRED,
    "fact_yes": frozenset({"label", "yes"}),
    "fact_no": frozenset({"label", "no"}),
    "facts": frozenset({"facts"}),
    "facts_joiner": frozenset(),
    "money": frozenset({"symbol", "code", "amount"}),
    "quantity": frozenset({"amount", "unit"}),
    "pred_le": PRED,
    "pred_lt": PRED,
    "pred_ge": PRED,
    "pred_gt": PRED,
    "pred_between": frozenset({"label", "low", "high"}),
    "pred_in": LIST,
    "pred_not_in": LIST,
    "pred_yes": frozenset({"label", "yes"}),
    "pred_no": frozenset({"label", "no"}),
    "pred_joiner": frozenset(),
    "in_joiner": frozenset(),
    "not_in_joiner": frozenset(),
    "condition_approve": RULE,
    "condition_deny": RULE,
    "deny_precedence": SUBJECT,
    "default_approve": SUBJECT,
    "default_deny": SUBJECT,
    "exception_approve": EXCEPTION,
    "exception_deny": EXCEPTION,
    "exception_order": SUBJECT,
    "scope": frozenset({"tests"}) | SUBJECT,
}


def parse_templates(data: object, where: str) -> TemplateSet:
    raw = mapping(data, where, {"families"}, ("families",))
    families = raw["families"]
    need(isinstance(families, dict) and len(families) >= 2, where, "need >= 2 template families")
    parsed: dict[str, dict[str, str]] = {}
    for name, family in families.items():
        at = f"{where} family {name!r}"
        entries = mapping(family, at, set(KEYS), tuple(KEYS))
        for key, template in entries.items():
            need(isinstance(template, str), f"{at}.{key}", "template must be a string")
            try:
                used = placeholders(template)
            except ValueError as exc:
                raise ClauseError(f"{at}.{key}: malformed template ({exc})") from None
            extra = sorted(used - KEYS[key])
            need(
                not extra,
                f"{at}.{key}",
                f"unknown placeholder(s) {extra}; allowed {sorted(KEYS[key])}",
            )
        parsed[str(name)] = {k: str(v) for k, v in entries.items()}
    return TemplateSet(parsed)


def load_templates(directory: Path | str | None = None) -> TemplateSet:
    path = Path(directory if directory is not None else DATA_DIR) / "templates.yaml"
    return parse_templates(read_yaml(path), str(path))
