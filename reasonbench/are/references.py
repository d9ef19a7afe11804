"""Cross-reference checks of a case family (the shape of each record is checked on parsing).

Ids are unique across claims, actions, injections and distractors; every relation endpoint,
``given`` claim, reveal, finding, requirement, H entry, prohibition, priority, instruction and the
defence claim name something the family holds; evidence-content relations start or end at the
asserting evidence; injected content is shaped for quarantine (Q2: only attacks, or supports
from the injected claim); every ``{placeholder}`` names a surface key.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from reasonbench.are.validate import need, unique

if TYPE_CHECKING:
    from reasonbench.are.cases import CaseFamily


def _placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def check_references(family: CaseFamily, where: str) -> None:
    actions = {a.id for a in family.actions}
    pool = family.claim_pool
    claims = (*family.claims, *family.background, *family.evidence, *family.distractors)
    ids = [a.id for a in family.actions] + [c.id for c in claims]
    unique(ids + [i.claim.id for i in family.injections], f"{where}: ids")
    known = set(pool) | actions
    grounds = {c.id for c in (*family.background, *family.evidence)}
    for section, relations in (
        ("relations", family.relations),
        ("asserted", family.asserted),
        ("optional.relations", family.optional_relations),
    ):
        for r in relations:
            at = f"{where}.{section} ({r.source} -> {r.target})"
            for end in (r.source, r.target, *r.given):
                need(end in known, at, f"unknown claim or action {end!r}")
            if section == "asserted":
                need(bool({r.source, r.target} & grounds), at, "must touch a grounds claim")
    for inj in family.injections:
        at = f"{where}.injections ({inj.claim.id})"
        need(inj.claim.channel == "untrusted", at, "injected content comes from 'untrusted'")
        for r in inj.asserts:
            linked = {r.source, r.target} <= known and inj.claim.id in (r.source, r.target)
            need(linked, at, f"{r.source} -> {r.target} must link the injection to a known claim")
            shaped = r.type == "att" or (r.type == "supp" and r.source == inj.claim.id)
            need(shaped, at, f"{r.type} {r.source} -> {r.target} breaks Q2")
    for c in family.claims:
        need(
            c.kind in ("P", "J"), f"{where}.claims ({c.id})", "norms hold principles and judgments"
        )
    for c in (*family.background, *family.evidence):
        need(c.kind == "B", f"{where} ({c.id})", "grounds hold background claims (kind B)")
    for c in family.distractors:
        need(c.kind in ("B", "P"), f"{where}.distractors ({c.id})", "kind B or P")
    judgments = {c.id for c in family.claims if c.kind == "J"}
    for tool in family.tools:
        for o in tool.outcomes:
            at = f"{where}.tools ({tool.name}.{o.name})"
            for v in o.reveals:
                need(v in {c.id for c in family.evidence}, at, f"reveals unknown evidence {v!r}")
            for u, _ in o.findings:
                need(u in judgments, at, f"finding on {u!r}, which is not a judgment")
    for spec in family.actions:
        for needed in spec.requires:
            need(needed in grounds, f"{where}.actions ({spec.id})", f"requires unknown {needed!r}")
    hard = [*(u for u, _ in family.non_negotiable), *family.hard_candidates]
    for u in hard:
        need(u in pool or u in actions, f"{where}.non_negotiable", f"unknown claim {u!r}")
    for u, s in family.non_negotiable:
        ok = s in (-1, 1) and (u not in actions or s == -1)
        need(ok, f"{where}.non_negotiable.{u}", "+1 or -1, and an action may only be -1")
    for h, act in (*family.prohibitions, *family.optional_prohibitions):
        at = f"{where}.prohibitions ({h}, {act})"
        need(h in known and act in actions, at, "expected (claim, action)")
    for name, priorities in family.stances:
        for u, eta in priorities:
            need(u in known and eta > 0, f"{where}.optional.stances.{name}.{u}", "unknown or <= 0")
    for act, _ in family.profile.instructions:
        need(act in actions, f"{where}.profile.instructions", f"unknown action {act!r}")
    if family.defence is not None:
        need(family.defence in pool, f"{where}.defence", f"unknown claim {family.defence!r}")
    keys = {k for k, _ in family.surface}
    texts = [family.title, family.task, *(a.text for a in family.actions)]
    texts += [c.text for c in pool.values()] + [t.text for t in family.tools]
    for template in texts:
        try:
            used = _placeholders(template)
        except ValueError as exc:
            need(False, where, f"malformed template {template!r} ({exc})")
        extra = sorted(used - keys)
        need(not extra, where, f"placeholder(s) {extra} in {template[:50]!r} are not surface keys")
