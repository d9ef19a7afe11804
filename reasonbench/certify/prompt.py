"""The LLM judge's prompt and verdict reading: a template whose slots are the sources, and the two
ways a verdict is read from an answer (docs/certify.md#an-llm-judge).

A template is text with one ``{name}`` slot per declared source (``{{`` and ``}}`` are literal
braces); a slot is filled with the hybrid's value of that source, as is if a string, else as
JSON. Slots and sources must match exactly: a slot no case has would fail every hybrid, a source
the judge never sees could not change its verdict. Reading: the declared label that the first
line of the answer with text starts with (case-insensitively, after leading whitespace and the
markup characters ``*_#>`"'``, which also make a line of their own not count; the label must end
there or be followed by a non-word character), or the first match of a regular expression (its ``verdict`` group, else its group 1,
else the whole match), which must be a declared label. Anything else is ``unparsable``: the
answer is on record, never replaced by a default.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.certify.config import ConfigError
from reasonbench.certify.plugins import AdjudicatorFailure, abbreviate

__all__ = ["Template", "VerdictReader"]

MARKUP = " \t*_#>`\"'"


class Template:
    """A prompt template; ``where`` names its option in error messages."""

    def __init__(self, text: str, where: str) -> None:
        self.text, self.where = text, where
        slots: list[str] = []
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc} (write {{{{ and }}}} for literal braces)") from None
        for _, name, spec, conversion in parsed:
            if name is None:
                continue
            if not name or spec or conversion or not name.isidentifier():
                shown = "{" + name + (f"!{conversion}" if conversion else "")
                shown += (f":{spec}" if spec else "") + "}"
                raise ConfigError(
                    f"{where}: slot {shown} is not a source name (a slot is {{<source>}}; "
                    "write {{ and }} for literal braces)"
                )
            if name not in slots:
                slots.append(name)
        if not slots:
            raise ConfigError(f"{where}: the template has no {{<source>}} slot")
        self.slots = tuple(slots)

    def check(self, sources: Sequence[str]) -> None:
        """ConfigError unless the slots are exactly ``sources``."""
        missing = [s for s in self.slots if s not in sources]
        if missing:
            raise ConfigError(
                f"{self.where}: slot {{{missing[0]}}} names no source of the cases "
                f"(sources: {', '.join(sources)})"
            )
        unused = [s for s in sources if s not in self.slots]
        if unused:
            raise ConfigError(
                f"{self.where}: source {unused[0]!r} has no {{{unused[0]}}} slot (the judge "
                "would never see it, so it could not change a verdict)"
            )

    def fill(self, hybrid: Mapping[str, Any]) -> str:
        values = {
            name: value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            for name, value in hybrid.items()
        }
        missing = [s for s in self.slots if s not in values]
        if missing:
            raise AdjudicatorFailure("crash", f"the hybrid has no source {missing[0]!r}")
        return self.text.format_map(values)


class VerdictReader:
    """Reads one declared label from an answer, or raises a replayable failure."""

    def __init__(self, labels: Sequence[str], regex: str | None) -> None:
        if not labels:
            raise ConfigError("the llm judge needs the run's declared labels")
        self.labels = tuple(labels)
        self._by_folded = {label.casefold(): label for label in labels}
        self.regex: re.Pattern[str] | None = None
        if regex is not None:
            try:
                self.regex = re.compile(regex)
            except re.error as exc:
                raise ConfigError(f"plugin_options.verdict_regex={regex!r}: {exc}") from None

    def read(self, answer: str) -> str:
        if not answer.strip():
            detail = f"the answer is blank: {abbreviate(repr(answer))}"
            raise AdjudicatorFailure("unparsable", detail, replayable=True)
        return self._search(answer) if self.regex is not None else self._first_line(answer)

    def _first_line(self, answer: str) -> str:
        # the first line with text: lines of bare markup ("**", "> ") before it do not count
        line = next((x for x in answer.splitlines() if x.lstrip(MARKUP)), answer.strip())
        head = line.lstrip(MARKUP)
        for label in sorted(self.labels, key=len, reverse=True):
            start, rest = head[: len(label)], head[len(label) :]
            if start.casefold() == label.casefold() and not (rest[:1].isalnum() or rest[:1] == "_"):
                return label
        raise AdjudicatorFailure(
            "unparsable",
            f"the answer's first line starts with no declared label: {abbreviate(line)!r}",
            replayable=True,
        )

    def _search(self, answer: str) -> str:
        assert self.regex is not None
        found = self.regex.search(answer)
        group = "verdict" if "verdict" in self.regex.groupindex else 1 if self.regex.groups else 0
        value = found.group(group) if found is not None else None
        if value is None:
            raise AdjudicatorFailure(
                "unparsable",
                f"verdict_regex finds no verdict in the answer: {abbreviate(answer)!r}",
                replayable=True,
            )
        label = self._by_folded.get(value.strip().casefold())
        if label is None:
            raise AdjudicatorFailure(
                "label",
                f"verdict {value.strip()!r} is not one of the declared labels "
                f"{sorted(self.labels)}",
                replayable=True,
            )
        return label
