"""Paired consistency of one method's predictions on the locked controls, per stratum and pooled.

For each control, the kind's registered relation (endpoints plus receipt family, the same for
every target) is applied to the parent's and the control's predictions, restricted to what the
method's target carries. Which pairs are **checkable** depends on the target alone: a pair is
checkable when the relation can say something about gold as that target would write it (an
inverse pair is not checkable for ``direct_verdict``). On a checkable pair a parse failure on
either side counts as a violation — a parse failure is a wrong answer — which keeps the bound
valid: a violated relation proves at least one of the two answers wrong, so the violation rate / 2
bounds the mean error from below.

Pooled counts are the sums of the strata's, so pooled consistency is the checkable-weighted mean
of the strata's. Cube targets also get the kind's cell relation as a separate diagnostic.

Beside it, the answers' diversity: the share of the method's locked-test answers (old and revised
verdict and receipt family, as the relations compare them; an unparsed output is one more
answer) that are its most frequent answer, per stratum and pooled. A method that gives one answer
to nearly every case agrees with itself on a pair without reading it; the tables and the figure
mark such consistency (reports/tables/consistency.py states the rule).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from reasonbench.analysis.gold import Gold
from reasonbench.analysis.record import CellAgreement, ConsistencyRate, PairedConsistency
from reasonbench.analysis.scoring import Scored, project
from reasonbench.controls import CONTROL_KINDS
from reasonbench.core.answer import Answer

__all__ = [
    "POOLED",
    "PairOutcome",
    "answer_key",
    "gold_top_answer",
    "pair_outcomes",
    "paired_consistency",
    "top_answer",
    "top_share",
]

POOLED = "pooled"


@dataclass(frozen=True)
class PairOutcome:
    """One (parent, control) pair of one method and seed under its kind's relation: what the
    consistency counts and the repair bootstrap (``analysis/inference.py``) resample by unit."""

    kind: str
    stratum: str
    unit_id: str
    checkable: bool
    consistent: bool


@dataclass
class _Count:
    pairs: int = 0
    checkable: int = 0
    consistent: int = 0

    def rate(self) -> ConsistencyRate:
        value = self.consistent / self.checkable if self.checkable else None
        bound = None if value is None else (1 - value) / 2
        return ConsistencyRate(self.pairs, self.checkable, self.consistent, value, bound)


@dataclass
class _Cells:
    pairs: int = 0
    all_cells: int = 0
    cells: int = 0
    total: int = 0

    def agreement(self) -> CellAgreement:
        return CellAgreement(
            self.pairs,
            self.all_cells / self.pairs if self.pairs else None,
            self.cells / self.total if self.total else None,
        )


def _pair(parent: Scored, control: Scored) -> tuple[bool, bool]:
    """(checkable, consistent) of one pair under its kind's relation."""
    kind = CONTROL_KINDS.get(control.gold.control or "")
    fields = parent.fields
    gold_parent = project(Answer.of_receipt(parent.gold.receipt, parent.gold.cube), fields)
    gold_control = project(Answer.of_receipt(control.gold.receipt, control.gold.cube), fields)
    if kind.relation(gold_parent, gold_control, parent.gold.cube) is None:
        return False, False
    if not (parent.record.parse_ok and control.record.parse_ok):
        return True, False
    said = kind.relation(
        project(parent.answer, fields), project(control.answer, fields), parent.gold.cube
    )
    return True, said is True  # a field the target carries but the answer lacks is a violation


def _cells(parent: Scored, control: Scored, tally: _Cells) -> None:
    kind = CONTROL_KINDS.get(control.gold.control or "")
    size = len(parent.gold.cube.verdicts)
    tally.pairs += 1
    tally.total += size
    if parent.answer.cube is None or control.answer.cube is None:
        return  # a parse failure agrees on no cell
    agree = kind.cells(parent.answer.cube, control.answer.cube)
    tally.all_cells += all(agree)
    tally.cells += sum(agree)


def _pairs(
    parents: Mapping[str, Scored], controls: Sequence[Scored]
) -> list[tuple[Scored, Scored]]:
    """The (parent, control) pairs whose parent was predicted."""
    out = []
    for c in controls:
        parent = parents.get(c.gold.parent_id or "")
        if parent is not None and c.gold.control is not None:
            out.append((parent, c))
    return out


def _outcome(parent: Scored, control: Scored) -> PairOutcome:
    checkable, ok = _pair(parent, control)
    kind = control.gold.control or ""
    return PairOutcome(kind, parent.gold.stratum, parent.gold.unit_id, checkable, ok)


def pair_outcomes(parents: Mapping[str, Scored], controls: Sequence[Scored]) -> list[PairOutcome]:
    """Every pair's outcome, in the controls' order (a pair's unit is its parent's)."""
    return [_outcome(parent, c) for parent, c in _pairs(parents, controls)]


def paired_consistency(
    parents: Mapping[str, Scored], controls: Sequence[Scored]
) -> PairedConsistency:
    """Consistency per control kind, per stratum and pooled, of one method and seed."""
    strata: dict[str, dict[str, _Count]] = {}
    cells: dict[str, _Cells] = {}
    for parent, c in _pairs(parents, controls):
        outcome = _outcome(parent, c)
        count = strata.setdefault(outcome.stratum, {}).setdefault(outcome.kind, _Count())
        count.pairs += 1
        count.checkable += outcome.checkable
        count.consistent += outcome.consistent
        if parent.fields.cube:
            _cells(parent, c, cells.setdefault(outcome.kind, _Cells()))
    kinds = [k for k in CONTROL_KINDS if any(k in by_kind for by_kind in strata.values())]
    pooled = {}
    for kind in kinds:
        total = _Count()
        for by_kind in strata.values():
            part = by_kind.get(kind, _Count())
            total.pairs += part.pairs
            total.checkable += part.checkable
            total.consistent += part.consistent
        pooled[kind] = total.rate()
    return PairedConsistency(
        pooled,
        {s: {k: strata[s][k].rate() for k in kinds if k in strata[s]} for s in sorted(strata)},
        {k: cells[k].agreement() for k in kinds if k in cells},
        top_answer(list(parents.values())),
    )


def answer_key(row: Scored) -> tuple[object, ...]:
    """One answer as the relations compare it: verdicts and receipt family (no cube cells)."""
    if not row.record.parse_ok:
        return ("unparsed",)
    answer = project(row.answer, row.fields)
    return (answer.old, answer.new, answer.sets)


def top_share(answers: Sequence[tuple[str, Hashable]]) -> dict[str, float]:
    """Per stratum and pooled, the share of ``(stratum, answer)`` pairs whose answer is that
    group's most frequent one."""
    groups: dict[str, Counter[Hashable]] = {}
    for stratum, answer in answers:
        for name in (POOLED, stratum):
            groups.setdefault(name, Counter())[answer] += 1
    return {
        name: counts.most_common(1)[0][1] / counts.total()
        for name, counts in sorted(groups.items())
    }


def top_answer(rows: Sequence[Scored]) -> dict[str, float]:
    """:func:`top_share` of a method's answers."""
    return top_share([(r.gold.stratum, answer_key(r)) for r in rows])


def gold_top_answer(gold: Sequence[Gold]) -> dict[str, float]:
    """:func:`top_share` of the gold answers (verdicts and receipt family): what a method that
    answers every case right would show."""
    answers = []
    for g in gold:
        answer = Answer.of_receipt(g.receipt)
        answers.append((g.stratum, (answer.old, answer.new, answer.sets)))
    return top_share(answers)
