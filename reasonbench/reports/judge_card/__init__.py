"""The Judge Card: PIS and its per-principle, per-family breakdown beside accuracy, receipt
accuracy, paired consistency and parse failures, as JSON, Markdown and self-contained HTML."""

from reasonbench.reports.judge_card.evaluate import CardSettings, evaluate_judge
from reasonbench.reports.judge_card.record import FORMAT, SECTIONS, JudgeCard
from reasonbench.reports.judge_card.render import to_html, to_markdown, write_card

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
