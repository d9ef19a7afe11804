"""Targets: parse(serialize(gold)) = gold for every target; parsers never raise on any string."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.core import GNA, Cube, receipt_of
from reasonbench.core.answer import Answer
from reasonbench.targets import TARGETS, ParseFailure, all_targets, parse_target

LABELS = frozenset({"approve", "deny", "refer"})

cubes = st.lists(st.sampled_from(sorted(LABELS)), min_size=8, max_size=8).map(
    lambda v: Cube(GNA, tuple(v))
)


@settings(max_examples=300, deadline=None)
@given(cubes, st.text(max_size=60))
def test_round_trip_every_target(cube: Cube, rationale: str) -> None:
    receipt = receipt_of(cube)
    texts = all_targets(cube, receipt, rationale)
    for target in TARGETS:
        parsed = parse_target(target, texts[f"target_{target}"], LABELS)
        assert isinstance(parsed, Answer), parsed
        assert parsed.new == receipt.new
        if target != "direct_verdict":
            assert parsed.old == receipt.old and parsed.sets == receipt.sets
    parsed_cube = parse_target("cube", texts["target_cube"], LABELS)
    assert isinstance(parsed_cube, Answer) and parsed_cube.cube == cube


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(TARGETS.names()), st.text(max_size=200))
def test_parsers_never_raise(target: str, text: str) -> None:
    result = parse_target(target, text, LABELS)
    assert isinstance(result, Answer | ParseFailure)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(TARGETS.names()),
    st.lists(
        st.sampled_from(
            [
                "old: ",
                "new: ",
                "receipt: ",
                "cube: ",
                "verdict: ",
                "rationale: ",
                "deny",
                "approve",
                "G",
                "N",
                "A",
                "+",
                " | ",
                "\n",
                "-=",
                "=",
                "none",
                "G+N+A",
                "X",
            ]
        ),
        max_size=30,
    ),
)
def test_parsers_never_raise_on_near_misses(target: str, pieces: list[str]) -> None:
    assert isinstance(parse_target(target, "".join(pieces), LABELS), Answer | ParseFailure)


def failure(target: str, text: object) -> str:
    result = parse_target(target, text, LABELS)
    assert isinstance(result, ParseFailure)
    return result.reason


def test_typed_failures_name_the_problem() -> None:
    assert "unknown verdict" in failure("direct_verdict", "verdict: maybe")
    assert "expected 3 line" in failure("direct_receipt", "old: deny\nnew: approve")
    assert "unknown source" in failure("direct_receipt", "old: deny\nnew: approve\nreceipt: X")
    assert "twice" in failure("direct_receipt", "old: deny\nnew: approve\nreceipt: G | G")
    assert "expected 8 cells" in failure("cube", "cube: -=deny G=approve")
    assert "not text" in failure("cube", None)
    bad_order = "cube: -=deny N=deny G=deny A=deny G+N=deny G+A=deny N+A=deny G+N+A=deny"
    assert "fixed order" in failure("cube", bad_order)


def test_receipt_member_order_is_not_significant() -> None:
    parsed = parse_target("direct_receipt", "old: deny\nnew: approve\nreceipt: A+N | G", LABELS)
    assert isinstance(parsed, Answer) and parsed.sets == (0b001, 0b110)


def test_rationale_receipt_keeps_free_text() -> None:
    text = "rationale: before: amount over limit. after: exception applies.\nold: deny\nnew: approve\nreceipt: N"
    parsed = parse_target("rationale_receipt", text, LABELS)
    assert isinstance(parsed, Answer) and parsed.sets == (0b010,)
