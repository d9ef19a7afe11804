"""Rendering grounds, norms and scopes into text, always from the objects (never the reverse).

The text of a norm is one sentence per rule item (condition or exception) plus the default, so
the clause audit can check that each item's sentence states every predicate, threshold and
outcome of that item. Prompt layout: a header line, then one section per source in the
requested order; a changed source shows its old and revised text, an unchanged one is shown
once under the family's "unchanged" label (the model still needs its content to decide).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reasonbench.strata.organizational.model import APPROVE, DENY, Grounds, Norm, Predicate, Scope
from reasonbench.strata.organizational.schema import Clause, FieldSpec

Family = Mapping[str, str]
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
PRED_KEYS = {"<=": "pred_le", "<": "pred_lt", ">=": "pred_ge", ">": "pred_gt"}


def capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def subject_words(clause: Clause) -> dict[str, str]:
    return {"subject": clause.subject, "subject_plural": clause.subject_plural}


def format_value(spec: FieldSpec, value: object, family: Family) -> str:
    """A field value as the family writes it: money with currency, counts with units."""
    if spec.kind == "enum":
        return str(value).replace("_", " ")
    if spec.kind == "bool":
        return spec.yes if value else spec.no
    amount = f"{value:,}"
    if spec.kind == "money":
        return family["money"].format(symbol=SYMBOLS[spec.unit], code=spec.unit, amount=amount)
    if not spec.unit:
        return amount
    unit = spec.unit_one if value == 1 else spec.unit
    return family["quantity"].format(amount=amount, unit=unit)


def predicate_text(spec: FieldSpec, predicate: Predicate, family: Family) -> str:
    """One predicate as a clause fragment; it always contains the formatted threshold/values."""
    op, value = predicate.op, predicate.value
    if op == "is":
        key = "pred_yes" if value else "pred_no"
        return family[key].format(label=spec.label, yes=spec.yes, no=spec.no)
    if op in ("in", "not_in"):
        joiner = family["in_joiner" if op == "in" else "not_in_joiner"]
        shown = joiner.join(format_value(spec, v, family) for v in predicate.members)
        return family[f"pred_{op}"].format(label=spec.label, values=shown)
    if op == "between":
        low, high = (format_value(spec, v, family) for v in predicate.band)
        return family["pred_between"].format(label=spec.label, low=low, high=high)
    return family[PRED_KEYS[op]].format(label=spec.label, value=format_value(spec, value, family))


def conjunction(specs: Mapping[str, FieldSpec], preds: Sequence[Predicate], family: Family) -> str:
    return family["pred_joiner"].join(predicate_text(specs[p.field], p, family) for p in preds)


def item_sentences(clause: Clause, norm: Norm, family: Family) -> list[str]:
    """One sentence per rule item, in ``norm.items()`` order (conditions, then exceptions).

    The audit relies on this alignment: sentence i must state every predicate of item i.
    """
    words = subject_words(clause)
    specs = clause.by_name
    sentences = [
        family[f"condition_{c.outcome}"].format(preds=conjunction(specs, c.when, family), **words)
        for c in norm.conditions
    ]
    sentences += [
        family[f"exception_{e.outcome}"].format(
            n=i + 1, preds=conjunction(specs, e.when, family), **words
        )
        for i, e in enumerate(norm.exceptions)
    ]
    return sentences


def norm_text(clause: Clause, norm: Norm, family: Family) -> str:
    """Reading order: conditions, deny-precedence note, default, exceptions, exception order."""
    words = subject_words(clause)
    items = item_sentences(clause, norm, family)
    n = len(norm.conditions)
    parts = items[:n]
    outcomes = {c.outcome for c in norm.conditions}
    if APPROVE in outcomes and DENY in outcomes:
        parts.append(family["deny_precedence"].format(**words))
    parts.append(family[f"default_{norm.default}"].format(**words))
    parts += items[n:]
    if len(norm.exceptions) > 1:
        parts.append(family["exception_order"].format(**words))
    return " ".join(parts)


def scope_text(clause: Clause, scope: Scope, family: Family) -> str:
    tests = conjunction(clause.by_name, scope.tests, family)
    return family["scope"].format(tests=tests, **subject_words(clause))


def grounds_text(specs: Mapping[str, FieldSpec], grounds: Grounds, family: Family) -> str:
    facts = []
    for name, value in grounds.values:
        spec = specs[name]
        if spec.kind == "bool":
            key = "fact_yes" if value else "fact_no"
            fact = family[key].format(label=spec.label, yes=spec.yes, no=spec.no)
        else:
            fact = family["fact"].format(label=spec.label, value=format_value(spec, value, family))
        facts.append(fact)
    return capitalised(family["facts"].format(facts=family["facts_joiner"].join(facts)))
