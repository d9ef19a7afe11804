"""The task explanation a zero-shot judge gets before each benchmark prompt.

It states the setting (old and revised grounds G, norms N, authority A; no authority means
``refer``), the verdict labels and, per target, the exact answer format its frozen parser reads
(each registered target's ``answer_format``, :mod:`reasonbench.targets`). Trained judges never see it: they learned the format.
"""

from __future__ import annotations

from reasonbench.judges.base import check_target
from reasonbench.targets import get_target

__all__ = ["instruction"]

SETTING = """\
You audit a decision. The input shows a case in an old and a revised version, in three parts: \
the case facts (grounds G), the rule (norms N) and who may decide (authority A). A case outside \
the authority is referred, never decided on the merits. Verdicts on policy cases are approve, \
deny or refer; on logical statements holds, fails or refer. Use exactly these words."""


def instruction(target: str) -> str:
    """The full instruction for answers in ``target`` format (the target's own answer format)."""
    return f"{SETTING}\n\n{get_target(check_target(target)).answer_format}\nWrite nothing else."
