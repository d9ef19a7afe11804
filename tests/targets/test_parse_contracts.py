"""What the frozen parsers promise beyond round trips: the exact failure reasons a user reads,
the whitespace they tolerate, where the revised verdict lies in each answer, and the gold text
of a record without a stored column (found by mutation testing, docs/testing.md)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, Cube, receipt_of
from reasonbench.core.answer import Answer
from reasonbench.targets import (
    TARGETS,
    ParseFailure,
    Target,
    all_targets,
    get_target,
    gold_text,
    parse_target,
    rationale_text,
)

LABELS = frozenset({"approve", "deny", "refer"})
SOURCES = ("X", "Y")


def reason(target: str, text: object, sources: tuple[str, ...] = GNA) -> str:
    result = parse_target(target, text, LABELS, sources)
    assert isinstance(result, ParseFailure) and result.target == target
    return result.reason


@pytest.mark.parametrize(
    ("target", "text", "expected"),
    [
        ("direct_verdict", "verdict: maybe", "unknown verdict 'maybe'"),
        ("direct_verdict", "verdict: " + "x" * 50, f"unknown verdict {'x' * 40!r}"),
        ("direct_verdict", "answer: deny", "expected a line starting with 'verdict: ', got 'answer: deny'"),
        ("direct_verdict", "a: " + "y" * 50, f"expected a line starting with 'verdict: ', got {('a: ' + 'y' * 50)[:40]!r}"),
        ("direct_verdict", "verdict: deny\nverdict: deny", "expected 1 line(s), got 2"),
        ("direct_receipt", "old: deny\nnew: approve", "expected 3 line(s), got 2"),
        ("direct_receipt", "old: deny\nnew: approve\nreceipt: G+", "empty source name in receipt set 'G+'"),
        ("direct_receipt", "old: deny\nnew: approve\nreceipt: G | G", "a receipt set is listed twice"),
        ("direct_receipt", "old: deny\nnew: approve\nreceipt: Q", "unknown source 'Q' (sources are ['G', 'N', 'A'])"),
        ("rationale_receipt", "why: x\nold: deny\nnew: approve\nreceipt: G", "expected a line starting with 'rationale:', got 'why: x'"),
        ("cube", "cube: -=deny", "expected 8 cells, got 1"),
        ("cube", "cube: -=deny G=deny N=deny A=deny G+N=deny G+A=deny N+A=deny G+N+Adeny", "expected cell 'G+N+A' in the fixed order, got 'G+N+Adeny'"),
        ("cube", "cube: -=deny N=deny G=deny A=deny G+N=deny G+A=deny N+A=deny G+N+A=deny", "expected cell 'G' in the fixed order, got 'N=deny'"),
        ("cube", None, "output is NoneType, not text"),
        ("cube", 7, "output is int, not text"),
        ("cube", "cube: -=deny G=de=ny N=deny A=deny G+N=deny G+A=deny N+A=deny G+N+A=deny", "unknown verdict 'de=ny'"),
        ("cube", "cube: -=deny " + "Q" * 50 + " N=deny A=deny G+N=deny G+A=deny N+A=deny G+N+A=deny", f"expected cell 'G' in the fixed order, got {'Q' * 40!r}"),
        ("rationale_receipt", "w" * 50 + "\nold: deny\nnew: approve\nreceipt: G", f"expected a line starting with 'rationale:', got {'w' * 40!r}"),
    ],
)  # fmt: skip
def test_failure_reasons(target: str, text: object, expected: str) -> None:
    assert reason(target, text) == expected


def test_an_unknown_target_is_a_failure_naming_it() -> None:
    assert reason("no_such_target", "verdict: deny") == TARGETS.unknown("no_such_target")


def test_surrounding_whitespace_is_tolerated() -> None:
    text = "\n  old: deny  \n new:   approve\t\nreceipt:  N+G  |  A \n\n"
    assert parse_target("direct_receipt", text, LABELS) == Answer("deny", "approve", (4, 3))
    assert parse_target("direct_verdict", "  verdict:  refer \n", LABELS) == Answer(
        None, "refer", None
    )
    text = " rationale: free text \n old: deny\nnew: deny\nreceipt: none "
    assert parse_target("rationale_receipt", text, LABELS) == Answer("deny", "deny", ())


def test_cube_over_other_sources() -> None:
    cube = Cube(SOURCES, ("deny", "approve", "deny", "approve"))
    text = all_targets(cube, receipt_of(cube), "r")["target_cube"]
    assert text == "cube: -=deny X=approve Y=deny X+Y=approve"
    assert parse_target("cube", text, LABELS, SOURCES) == Answer.of_cube(cube)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted(LABELS)), min_size=8, max_size=8), st.text(max_size=40))
def test_the_verdict_pattern_finds_the_revised_verdict(verdicts: list[str], why: str) -> None:
    cube = Cube(GNA, tuple(verdicts))
    texts = all_targets(cube, receipt_of(cube), why)
    for name in TARGETS:
        matches = list(re.finditer(TARGETS.get(name).verdict_pattern(GNA), texts[f"target_{name}"]))
        assert matches and matches[-1].group(1) == cube.new, (name, texts[f"target_{name}"])
    two = Cube(SOURCES, tuple(verdicts[:4]))
    cube_text = all_targets(two, receipt_of(two), why)["target_cube"]
    found = re.findall(TARGETS.get("cube").verdict_pattern(SOURCES), cube_text)
    assert found == [two.new]


def test_the_rationale_is_one_line_of_the_first_traces() -> None:
    assert rationale_text(["a", "b", "c", "d"], []) == "before: a; b; c. after: no condition fired."
    assert rationale_text([], ["x", "y"], limit=1) == "before: no condition fired. after: x."
    assert rationale_text(["a"], ["x", "y", "z"]) == "before: a. after: x; y; z."
    cube = Cube(GNA, ("deny",) * 7 + ("approve",))
    text = all_targets(cube, receipt_of(cube), "  two\nlines  here ")["target_rationale_receipt"]
    assert text.split("\n")[0] == "rationale: two lines here"


def test_gold_text_of_a_record_without_the_column() -> None:
    cube = Cube(GNA, ("deny", "approve", "deny", "deny", "approve", "approve", "deny", "approve"))
    receipt = receipt_of(cube)
    texts = all_targets(cube, receipt, "because")
    record = {
        "cube": json.dumps(cube.cells()),
        "old_verdict": cube.old,
        "new_verdict": cube.new,
        "receipt": json.dumps(receipt.family()),
        "target_rationale_receipt": texts["target_rationale_receipt"],
    }
    for name in TARGETS:
        assert gold_text(name, record) == texts[f"target_{name}"], name
    assert gold_text("direct_verdict", {**record, "target_direct_verdict": "verdict: x"}) == (
        "verdict: x"
    )


def test_a_later_target_reads_the_records_sources_and_rationale() -> None:
    # a target registered after the build is serialized from the record's gold (docs/extending.md)
    echo = Target(
        name="rationale_echo",
        serialize=lambda cube, receipt, why: f"{why} | {receipt.family()}",
        parse=lambda text, labels, sources: Answer(None, None, None),
        answer_format="",
        lines=1,
        max_new_tokens=8,
        verdict_only=True,
        verdict_source="model",
        verdict_pattern=lambda sources: r"(\S+)",
    )
    cube = Cube(GNA, ("deny", "approve") * 4)  # stored records are over (G, N, A)
    record = {
        "cube": json.dumps(cube.cells()),
        "old_verdict": "deny",
        "new_verdict": "approve",
        "receipt": json.dumps([["G"]]),
        "target_rationale_receipt": "rationale: two words\nold: deny\nnew: approve\nreceipt: G",
    }
    TARGETS.register("rationale_echo", echo)
    try:
        assert get_target("rationale_echo") is echo
        assert gold_text("rationale_echo", record) == "two words | [['G']]"
    finally:
        TARGETS.unregister("rationale_echo")
    assert gold_text("direct_receipt", record) == "old: deny\nnew: approve\nreceipt: G"
