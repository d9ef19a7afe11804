"""Irrelevant distractors: the same fact or rule added to both the old and the revised state.

A distractor only uses a *fresh* entity or fresh properties (names in neither state nor the
query), which makes it irrelevant by construction:

- a rule over fresh properties concludes a fresh property, never the query's;
- a fact about a fresh entity ``z`` can fire general rules, but range restriction means every
  conclusion of an instance with ``X = z`` mentions ``z``, and no ground rule mentions ``z``,
  so nothing about the world's own entities (the query included) is ever derived from it.

The caller still certifies each distractor by executing all 8 cells (the tests do too).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Transition
from reasonbench.strata.logical.vocabulary import Vocabulary
from reasonbench.strata.logical.world import VARIABLE as X
from reasonbench.strata.logical.world import Atom, Rule, fresh_rule_id


def _used(state: EvaluatorState[Any]) -> set[str]:
    names = {t for a in state["G"].atoms for t in a}
    for rule in state["N"].rules:
        names |= {t for a in (*rule.premises, rule.conclusion) for t in a}
    return names


def add_distractor(
    transition: Transition, query: Atom, vocab: Vocabulary, rng: random.Random
) -> Transition | None:
    old, new = transition.old, transition.new
    used = _used(old) | _used(new) | set(query)
    entities = [e for e in vocab.entities if e not in used]
    fresh = [p for p in vocab.properties if p not in used]
    known = sorted({a[0] for s in (old, new) for a in s["G"].atoms if len(a) == 2})
    relations = sorted({a[0] for s in (old, new) for a in s["G"].atoms if len(a) == 3})
    anchors = sorted({t for a in old["G"].atoms for t in a[1:]})
    kinds = []
    if entities and (fresh or known):
        kinds.append("fact")
    if entities and relations and anchors:
        kinds.append("link")
    if len(fresh) >= 2:
        kinds.append("rule")
    if not kinds:
        return None
    kind = rng.choice(kinds)
    if kind == "rule":
        # Premises may reuse world properties (the rule fires, harmlessly): a subtler distractor.
        head, first = rng.sample(fresh, 2)
        premise = rng.choice(known) if known and rng.random() < 0.5 else first
        rule = Rule(
            fresh_rule_id(old["N"], new["N"], old["A"], new["A"]), ((premise, X),), (head, X)
        )
        grant = rng.random() < 0.5

        def extend(state: EvaluatorState[Any]) -> EvaluatorState[Any]:
            mask = state["A"].toggle(rule.id) if grant else state["A"]
            return state.replace(N=state["N"].put(rule), A=mask)

    else:
        entity = rng.choice(entities)
        if kind == "fact":
            atom: Atom = (rng.choice(fresh + known), entity)
        else:
            anchor = rng.choice(anchors)
            pair = (entity, anchor) if rng.random() < 0.5 else (anchor, entity)
            atom = (rng.choice(relations), *pair)

        def extend(state: EvaluatorState[Any]) -> EvaluatorState[Any]:
            return state.replace(G=state["G"].add(atom))

    return replace(transition, old=extend(old), new=extend(new))
