"""The Judge Card: PIS and its per-principle, per-family breakdown beside accuracy, receipt
accuracy, paired consistency and parse failures, as JSON, Markdown and self-contained HTML
(``reasonbench judge-card``, docs/judge_card.md).

One judge is run through the stress suite and the accuracy items (:mod:`.run`,
:mod:`.accuracy`) into the typed record (:mod:`.record`), which the renderings read alone
(:mod:`.content`, :mod:`.blocks`, :mod:`.plots`, :mod:`.render`)."""

from reasonbench.judge_card.record import FORMAT, SECTIONS, JudgeCard
from reasonbench.judge_card.render import to_html, to_markdown, write_card
from reasonbench.judge_card.run import CardSettings, evaluate_judge

__all__ = [
    "FORMAT",
    "SECTIONS",
    "CardSettings",
    "JudgeCard",
    "evaluate_judge",
    "to_html",
    "to_markdown",
    "write_card",
]
