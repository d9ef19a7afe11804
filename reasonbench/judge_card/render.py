"""Markdown and self-contained HTML renderings of a Judge Card, and writing all its files.

The HTML card embeds its figures as base64 PNG and its style inline, so it is one file that opens
anywhere, offline. Files are written atomically (temporary name, then rename).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from reasonbench.invariance.runs import Answers
from reasonbench.invariance.suite import StressSuite
from reasonbench.io import OutputDir, dumps_json
from reasonbench.judge_card.blocks import Block, Figure, Heading, Para
from reasonbench.judge_card.content import blocks
from reasonbench.judge_card.plots import figures
from reasonbench.judge_card.record import JudgeCard
from reasonbench.reports.render import Table

__all__ = ["to_html", "to_markdown", "write_card"]

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #1d2733; line-height: 1.45; }
h1 { border-bottom: 3px solid #35618f; padding-bottom: .3rem; }
h2 { margin-top: 2.2rem; color: #35618f; border-bottom: 1px solid #d6dde6; }
.pis { display: inline-block; font-size: 2.4rem; font-weight: bold; color: #35618f;
       border: 2px solid #35618f; border-radius: .5rem; padding: .2rem 1rem; margin: .5rem 0; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .92rem; }
caption { text-align: left; font-weight: bold; padding-bottom: .3rem; }
th, td { border: 1px solid #d6dde6; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
td { word-break: break-word; }
figure { margin: 1rem 0; } figcaption { font-size: .85rem; color: #555; }
img { max-width: 100%; }
"""


def to_markdown(card: JudgeCard, figure_dir: str = "figures") -> str:
    out = []
    for block in blocks(card):
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}\n")
        elif isinstance(block, Para):
            out.append(block.text + "\n")
        elif isinstance(block, Table):
            out.append(block.markdown())
        else:
            out.append(f"![{block.caption}]({figure_dir}/{block.name}.png)\n")
    return "\n".join(out)


def _html_block(block: Block, pngs: Mapping[str, bytes], pis: str) -> str:
    if isinstance(block, Heading):
        text = html.escape(block.text)
        if block.level == 1:
            return f'<h1>{text}</h1>\n<div class="pis" id="pis-value">PIS {html.escape(pis)}</div>'
        anchor = block.text.split(":")[0].lower().replace(" ", "-")
        return f'<h{block.level} id="{anchor}">{text}</h{block.level}>'
    if isinstance(block, Para):
        return f"<p>{html.escape(block.text)}</p>"
    if isinstance(block, Table):
        return block.html()
    assert isinstance(block, Figure)
    data = base64.b64encode(pngs[block.name]).decode("ascii")
    caption = html.escape(block.caption)
    return f'<figure><img alt="{caption}" src="data:image/png;base64,{data}"><figcaption>{caption}</figcaption></figure>'


def to_html(card: JudgeCard, pngs: Mapping[str, bytes]) -> str:
    pis = "—" if card.pis is None else f"{card.pis:.2f}"
    body = "\n".join(_html_block(b, pngs, pis) for b in blocks(card))
    title = html.escape(f"Judge Card: {card.judge['name']}")
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n'
        f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def write_card(
    card: JudgeCard,
    out_dir: Path,
    suite: StressSuite | None = None,
    answers: Answers | None = None,
    overwrite: bool = False,
) -> dict[str, Path]:
    """``judge_card.{json,md,html}``, ``figures/*.png`` and, if given, the suite and answers;
    every file atomically, and only over files reasonbench wrote (:class:`OutputDir`)."""
    pngs = figures(card)
    files: dict[str, bytes] = {
        "judge_card.json": dumps_json(card.to_json()).encode(),
        "judge_card.md": to_markdown(card).encode(),
        "judge_card.html": to_html(card, pngs).encode(),
        **{f"figures/{name}.png": data for name, data in pngs.items()},
    }
    if suite is not None:
        files["stress_suite.json"] = json.dumps(suite.to_json(), sort_keys=True).encode()
    if answers is not None:
        lines: Sequence[str] = [
            json.dumps({"prompt": p, "answers": list(a)}, ensure_ascii=False)
            for p, a in answers.items()
        ]
        files["answers.jsonl"] = ("\n".join(lines) + "\n").encode()
    with OutputDir(out_dir, "judge-card", overwrite) as out:
        for rel in files:
            out.check(rel)  # refuse before writing anything, so a card is never half replaced
        for rel, data in files.items():
            out.write_bytes(rel, data)
    written = {"json": "judge_card.json", "markdown": "judge_card.md", "html": "judge_card.html"}
    written |= {
        k: v
        for k, v in (("suite", "stress_suite.json"), ("answers", "answers.jsonl"))
        if v in files
    }
    return {key: out_dir / rel for key, rel in written.items()}
