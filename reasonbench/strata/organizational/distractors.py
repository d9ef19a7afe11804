"""Irrelevant additions for the distractor control, certified by executing the whole cube.

Two kinds, both added identically to the old and the revised state (so every hybrid has them):

* **field** — a fact from the organisation-wide distractor pool (``common.yaml``) that no rule
  or scope mentions, e.g. the submission channel;
* **sentence** — a rule line (a condition or an exception) whose predicate is false on both the
  old and the revised facts. Hybrids only ever take facts from one of those two, so the line can
  never fire in any cell.

The function itself executes all 8 cells before and after and returns ``None`` rather than an
uncertified distractor; callers are still expected to re-certify (the benchmark audit does).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from reasonbench.core.cube import execute_cube
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational.adjudicator import ADJUDICATOR, unpack
from reasonbench.strata.organizational.builders import predicate_with_truth
from reasonbench.strata.organizational.model import OUTCOMES, Condition, Norm
from reasonbench.strata.organizational.sampling import uniform
from reasonbench.strata.organizational.schema import Clause, FieldSpec


def _with(state: EvaluatorState[Any], **parts: Any) -> EvaluatorState[Any]:
    return state.replace(**parts)


def add_field(
    transition: Transition, pool: tuple[FieldSpec, ...], rng: random.Random
) -> Transition | None:
    old_g, _, _ = unpack(transition.old)
    new_g, _, _ = unpack(transition.new)
    free = [f for f in pool if f.name not in old_g.mapping and f.name not in new_g.mapping]
    if not free:
        return None
    spec = rng.choice(free)
    value: Any
    if spec.kind == "bool":
        value = rng.random() < 0.5
    elif spec.kind == "enum":
        value = rng.choice(spec.values)
    else:
        value = uniform(spec, rng)
    return replace(
        transition,
        old=_with(transition.old, G=old_g.extended(spec.name, value)),
        new=_with(transition.new, G=new_g.extended(spec.name, value)),
    )


def _add_line(norm: Norm, line: Condition, as_exception: bool) -> Norm:
    if as_exception:
        return replace(norm, exceptions=(*norm.exceptions, line))
    return replace(norm, conditions=(*norm.conditions, line))


def add_sentence(clause: Clause, transition: Transition, rng: random.Random) -> Transition | None:
    old_g, old_n, _ = unpack(transition.old)
    new_g, new_n, _ = unpack(transition.new)
    names = [f.name for f in clause.fields]
    rng.shuffle(names)
    for name in names:
        facts = (old_g[name], new_g[name])
        predicate = predicate_with_truth(clause.spec(name), facts, False, rng)
        if predicate is None:
            continue
        line = Condition((predicate,), rng.choice(OUTCOMES))
        as_exception = rng.random() < 0.5
        return replace(
            transition,
            old=_with(transition.old, N=_add_line(old_n, line, as_exception)),
            new=_with(transition.new, N=_add_line(new_n, line, as_exception)),
        )
    return None


def add_distractor(
    clause: Clause, pool: tuple[FieldSpec, ...], transition: Transition, rng: random.Random
) -> Transition | None:
    """``transition`` plus one certified-irrelevant field or rule line, or ``None``."""
    before = execute_cube(ADJUDICATOR, transition.old, transition.new)
    kinds = ["field", "sentence"]
    rng.shuffle(kinds)
    for kind in kinds:
        result = (
            add_field(transition, pool, rng)
            if kind == "field"
            else add_sentence(clause, transition, rng)
        )
        if result is not None and execute_cube(ADJUDICATOR, result.old, result.new) == before:
            return result
    return None
