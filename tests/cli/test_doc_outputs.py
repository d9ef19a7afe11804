"""Every output a page of docs/ shows is checked by a test or marked illustrative.

A fenced block that may show what a program prints or writes — language ``text``, ``json``,
``markdown``, ``console`` or none — has one of these on the line before it:

* ``<!-- output: checked by tests/<path>.py -->``: that test compares the block with what
  reasonbench prints or writes (the file must exist and name the page);
* ``<!-- output: illustrative -->``: timings, ports, one machine's measurements, an abridged
  message; the prose just above the block says so in words ("illustrative", "measured"), since a
  comment is invisible to the reader;
* ``<!-- not output: <what it is> -->``: an input, a template, a notation: nothing printed.

A page of measurements marks them all once, at its top: ``<!-- outputs: illustrative -->`` and a
sentence that says so. The ``json worked-example`` blocks of docs/strata are checked by
tests/strata/test_worked_examples.py (their own convention). Outputs quoted inline in prose are
not found by this test; reviewers check those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
SHOWN = {"text", "json", "markdown", "console", ""}  # languages that may show an output
FENCE = re.compile(r"^```(\S*)(.*)$")
MARK = re.compile(r"^<!-- (output: checked by (\S+)|output: illustrative|not output: .+) -->$")
PAGE_MARK = "<!-- outputs: illustrative -->"
IN_WORDS = re.compile(r"illustrative|measured", re.IGNORECASE)


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based, of the opening fence
    language: str
    info: str  # what follows the language on the fence line
    mark: str | None  # the marker comment before it
    prose: str  # the paragraph just above (after the marker), for the reader


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    code, opens, inside = [], [], False  # per line: fence or inside a block; opening fence
    for line in lines:
        fence = line.startswith("```")
        code.append(inside or fence)
        opens.append(fence and not inside)
        inside = inside != fence
    found = []
    for i, line in enumerate(lines):
        match = FENCE.match(line)
        if not match or not opens[i]:
            continue
        above = [x for x in lines[:i] if x.strip()]
        mark = above[-1] if above and MARK.match(above[-1]) else None
        # the nearest paragraph of prose above, past any command block shown before the output
        paragraph: list[str] = []
        for j in range(i - 1, -1, -1):
            if lines[j].strip() and not code[j] and not lines[j].startswith("<!--"):
                paragraph.append(lines[j])
            elif paragraph and not code[j]:
                break
        found.append(Block(page, i + 1, match.group(1), match.group(2).strip(), mark,
                           " ".join(reversed(paragraph))))  # fmt: skip
    return found


def shown() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.language in SHOWN]


def where(block: Block) -> str:
    return f"{block.page.relative_to(ROOT)}:{block.line}"


def test_the_docs_show_outputs() -> None:
    assert len(shown()) > 40


@pytest.mark.parametrize("block", shown(), ids=where)
def test_every_shown_output_is_checked_or_marked_illustrative(block: Block) -> None:
    text = block.page.read_text(encoding="utf-8")
    if "worked-example" in block.info.split():
        assert (ROOT / "tests" / "strata" / "test_worked_examples.py").is_file()
        return
    if block.mark is None:
        assert PAGE_MARK in text, (
            f"{where(block)}: mark the block checked, illustrative or not an output "
            "(tests/cli/test_doc_outputs.py says how)"
        )
        top = text[: text.index("\n## ")] if "\n## " in text else text
        assert IN_WORDS.search(top.replace(PAGE_MARK, "")), "say it to the reader at the top"
        return
    match = MARK.match(block.mark)
    assert match is not None
    checker = match.group(2)
    if checker is not None:
        test = ROOT / checker
        assert test.is_file() and test.name.startswith("test_"), f"{where(block)}: {checker}"
        page = block.page.relative_to(ROOT).as_posix()
        assert page in test.read_text(encoding="utf-8"), f"{checker} never names {page}"
    elif block.mark == "<!-- output: illustrative -->":
        assert IN_WORDS.search(block.prose), f"{where(block)}: say it is illustrative in words"
