"""What the frozen parser reads of a model's answer: a leading reasoning block dropped, then the
target's number of lines. Local, served and harness-scored judges read answers the same way, so
the pieces live with the targets, not with any one of them."""

from __future__ import annotations

import re

from reasonbench.targets.base import get_target

__all__ = ["split_reasoning", "trim_answer", "trim_lines"]

THINK = re.compile(r"\A\s*(?:<think>)?(.*?)</think>\s*", re.DOTALL)
OPEN_THINK = re.compile(r"\A\s*<think>(.*)\Z", re.DOTALL)


def split_reasoning(content: str) -> tuple[str, str | None]:
    """(answer, reasoning): a leading ``<think>…</think>`` block (its opening tag may be in the
    prompt, as Qwen3's template puts it) is reasoning; a ``<think>`` never closed (cut by the
    token budget) leaves no answer. Content without a think block is returned unchanged; the
    reasoning is returned stripped."""
    match = THINK.match(content)
    if match:
        return content[match.end() :], match.group(1).strip()
    unclosed = OPEN_THINK.match(content)
    if unclosed:
        return "", unclosed.group(1).strip()
    return content, None


def trim_lines(text: str, target: str) -> str:
    """The first non-empty lines the target has."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    return "\n".join(lines[: get_target(target).lines])


def trim_answer(text: str, target: str) -> str:
    """A leading ``<think>`` block dropped, then the first non-empty lines the target has."""
    return trim_lines(split_reasoning(text)[0], target)
