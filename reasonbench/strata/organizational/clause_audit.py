"""The clause-set audit (issue #3, item 2), run by a test and by ``reasonbench clauses audit``.

Per clause, from the objects (never by reading the text by eye):

1. **compiles** — the rule and scope survive a round trip through their data form and the
   adjudicator executes sampled states of the clause;
2. **fields exist** — every field the rule or scope mentions is a schema field;
3. **all labels reachable** — some grounds yield ``approve``, some ``deny``, some ``refer``;
4. **text covers the rule** — in every template family, sentence i of the clause text states
   every predicate of rule item i, each with its threshold or values, and that item's outcome;
   the default is stated; the scope text states every scope test and that others are referred.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR
from reasonbench.strata.organizational.model import APPROVE, DENY, LABELS, Condition, Predicate
from reasonbench.strata.organizational.parse import (
    ClauseError,
    norm_json,
    parse_norm,
    parse_scope,
    predicate_json,
)
from reasonbench.strata.organizational.render import (
    Family,
    format_value,
    item_sentences,
    norm_text,
    predicate_text,
    scope_text,
)
from reasonbench.strata.organizational.sampling import sample_grounds
from reasonbench.strata.organizational.schema import Clause
from reasonbench.strata.template_set import TemplateSet

SAMPLES = 4000
STEMS = {APPROVE: "approv", DENY: "den"}


@dataclass(frozen=True)
class ClauseAudit:
    unit_id: str
    labels: tuple[str, ...]
    counts: dict[str, int] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"unit_id": self.unit_id, "ok": self.ok, "labels": list(self.labels), **self.counts,
                "problems": list(self.problems)}  # fmt: skip


def check_compiles(clause: Clause) -> list[str]:
    try:
        rule = parse_norm(norm_json(clause.rule), "rule", clause.by_name)
        scope = parse_scope(
            [predicate_json(t) for t in clause.scope.tests], "scope", clause.by_name
        )
    except ClauseError as exc:
        return [f"does not compile: {exc}"]
    if rule != clause.rule or scope != clause.scope:
        return ["rule or scope changes in a round trip through its data form"]
    return []


def check_fields(clause: Clause) -> list[str]:
    mentioned = set(clause.rule.fields()) | set(clause.scope.fields())
    return [f"mentions unknown field {name!r}" for name in sorted(mentioned - set(clause.by_name))]


def reachable_labels(clause: Clause, samples: int = SAMPLES) -> tuple[str, ...]:
    rng = random.Random(f"audit:{clause.unit_id}")  # str seeds are hashed with SHA-512: stable
    found: set[str] = set()
    for _ in range(samples):
        grounds = sample_grounds(clause, clause.rule, clause.scope, rng)
        clause.check_grounds(grounds)
        found.add(
            ADJUDICATOR.adjudicate(EvaluatorState.of(G=grounds, N=clause.rule, A=clause.scope))
        )
        if found == LABELS:
            break
    return tuple(sorted(found))


def _states(clause: Clause, predicate: Predicate, family: Family) -> list[str]:
    """What the text of ``predicate`` must contain: its threshold or each listed value."""
    spec = clause.spec(predicate.field)
    if predicate.op == "is":
        return []  # a flag is stated by its own yes/no phrase; checked via predicate_text
    values = predicate.value if isinstance(predicate.value, tuple) else (predicate.value,)
    return [format_value(spec, v, family) for v in values]


def _item_problems(
    clause: Clause, item: Condition, sentence: str, family: Family, where: str
) -> list[str]:
    problems, rest = [], sentence
    for predicate in item.when:
        phrase = predicate_text(clause.spec(predicate.field), predicate, family)
        if phrase not in sentence:
            problems.append(f"{where}: predicate on {predicate.field!r} not stated")
        problems += [
            f"{where}: value {v!r} not stated"
            for v in _states(clause, predicate, family)
            if v not in phrase
        ]
        rest = rest.replace(phrase, "")
    other = DENY if item.outcome == APPROVE else APPROVE
    if STEMS[item.outcome] not in rest.lower() or STEMS[other] in rest.lower():
        problems.append(f"{where}: outcome {item.outcome!r} not stated unambiguously")
    return problems


def check_text(clause: Clause, templates: TemplateSet) -> list[str]:
    problems: list[str] = []
    for name in templates.names:
        family = templates.family(name)
        text = norm_text(clause, clause.rule, family)
        sentences = item_sentences(clause, clause.rule, family)
        for i, (item, sentence) in enumerate(zip(clause.rule.items(), sentences, strict=True)):
            if sentence not in text:
                problems.append(f"{name}: rule item {i} missing from the clause text")
            problems += _item_problems(clause, item, sentence, family, f"{name}: rule item {i}")
        default = family[f"default_{clause.rule.default}"].format(
            subject=clause.subject, subject_plural=clause.subject_plural
        )
        if default not in text:
            problems.append(f"{name}: default {clause.rule.default!r} not stated")
        scope = scope_text(clause, clause.scope, family)
        for test in clause.scope.tests:
            phrase = predicate_text(clause.spec(test.field), test, family)
            if phrase not in scope or any(v not in phrase for v in _states(clause, test, family)):
                problems.append(f"{name}: scope test on {test.field!r} not stated")
        if "refer" not in scope.lower():
            problems.append(f"{name}: scope text does not say that other cases are referred")
    return problems


def audit_clause(clause: Clause, templates: TemplateSet) -> ClauseAudit:
    counts = {
        "fields": len(clause.fields),
        "conditions": len(clause.rule.conditions),
        "exceptions": len(clause.rule.exceptions),
        "scope_tests": len(clause.scope.tests),
    }
    problems = check_fields(clause)
    if problems:  # nothing else can run on a rule that names a field the schema lacks
        return ClauseAudit(clause.unit_id, (), counts, tuple(problems))
    problems += check_compiles(clause)
    labels = reachable_labels(clause)
    problems += [f"no grounds yield {label!r}" for label in sorted(LABELS - set(labels))]
    problems += check_text(clause, templates)
    return ClauseAudit(clause.unit_id, labels, counts, tuple(problems))


def audit_all(clauses: tuple[Clause, ...], templates: TemplateSet) -> list[ClauseAudit]:
    return [audit_clause(c, templates) for c in clauses]
