"""The one canonical JSON text, its per-object memo, and parsing once per distinct content."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from reasonbench.core.canonical import canonical_json, memo_text, parsed_once

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)


@given(JSON)
def test_parsed_once_gives_what_parse_gives(raw: Any) -> None:
    calls: list[Any] = []

    def parse(value: Any) -> str:
        calls.append(value)
        return canonical_json(value)

    once = parsed_once(parse)
    assert once(raw) == parse(raw)
    assert once(json.loads(json.dumps(raw))) == parse(raw)  # an equal copy: no new parse
    assert len(calls) == 3


def test_what_is_not_json_reaches_the_parser_as_given() -> None:
    seen: list[Any] = []
    once = parsed_once(lambda value: seen.append(value) or len(seen))
    odd = {"ids": {1, 2}}  # a set: no canonical text
    assert once(odd) == 1 and once(odd) == 2 and seen == [odd, odd]


@dataclass(frozen=True)
class _Box:
    value: int


def test_memo_text_is_built_once_and_not_part_of_equality() -> None:
    built: list[int] = []
    box = _Box(1)

    def build() -> str:
        built.append(1)
        return canonical_json({"v": box.value})

    assert memo_text(box, build) == memo_text(box, build) == '{"v":1}'
    assert built == [1] and box == _Box(1) and hash(box) == hash(_Box(1))
