"""The task explanation a zero-shot judge gets before each benchmark prompt.

It states the setting (old and revised grounds G, norms N, authority A; no authority means
``refer``), the verdict labels and, per target, the exact answer format its frozen parser reads
(:mod:`reasonbench.targets.parse`). Trained judges never see it: they learned the format.
"""

from __future__ import annotations

from reasonbench.judges.base import check_target

__all__ = ["TARGET_LINES", "instruction"]

SETTING = """\
You audit a decision. The input shows a case in an old and a revised version, in three parts: \
the case facts (grounds G), the rule (norms N) and who may decide (authority A). A case outside \
the authority is referred, never decided on the merits. Verdicts on policy cases are approve, \
deny or refer; on logical statements holds, fails or refer. Use exactly these words."""

RECEIPT = """\
If the old and the revised verdict differ, the receipt lists every minimal set of revised parts \
that, swapped into the old version on their own, already give the revised verdict: join the \
parts of a set with "+" (e.g. G+N) and separate sets with " | "; write "none" if the verdict \
did not change."""

FORMATS = {
    "direct_verdict": "Give the revised verdict. Answer with one line:\nverdict: <verdict>",
    "direct_receipt": f"Give the old and the revised verdict. {RECEIPT}\n"
    "Answer with exactly three lines:\nold: <verdict>\nnew: <verdict>\nreceipt: <sets or none>",
    "rationale_receipt": f"Give the old and the revised verdict. {RECEIPT}\n"
    "Answer with exactly four lines:\nrationale: <one sentence>\nold: <verdict>\n"
    "new: <verdict>\nreceipt: <sets or none>",
    "cube": "Give the verdict of every mix of old and revised parts (- means all old; G means the "
    "revised facts with the old rule and authority; and so on). Answer with one line:\n"
    "cube: -=<v> G=<v> N=<v> A=<v> G+N=<v> G+A=<v> N+A=<v> G+N+A=<v>",
}
TARGET_LINES = {"direct_verdict": 1, "direct_receipt": 3, "rationale_receipt": 4, "cube": 1}


def instruction(target: str) -> str:
    """The full instruction for answers in ``target`` format."""
    return f"{SETTING}\n\n{FORMATS[check_target(target)]}\nWrite nothing else."
