"""The lenient reading: reported beside the strict parse, never instead of it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reasonbench.evaluate import lenient_parse
from reasonbench.strata.organizational.model import LABELS
from reasonbench.targets import ParseFailure, parse_target

VERDICTS = sorted(LABELS)


@given(
    st.sampled_from(VERDICTS), st.sampled_from(VERDICTS), st.sampled_from(["none", "G", "G+N | A"])
)
def test_lenient_agrees_with_strict_where_strict_parses(old: str, new: str, receipt: str) -> None:
    text = f"old: {old}\nnew: {new}\nreceipt: {receipt}"
    strict = parse_target("direct_receipt", text, LABELS)
    if not isinstance(strict, ParseFailure):
        assert lenient_parse("direct_receipt", text, LABELS) == strict


def test_lenient_reads_wrapped_answers_the_strict_parser_refuses() -> None:
    wrapped = (
        "Let me check the authority first.\n\n**Old:** approve\n- **New:** `Deny`.\n"
        "Receipt: None\nThat is my answer."
    )
    assert isinstance(parse_target("direct_receipt", wrapped, LABELS), ParseFailure)
    lenient = lenient_parse("direct_receipt", wrapped, LABELS)
    assert not isinstance(lenient, ParseFailure) and (lenient.old, lenient.new, lenient.sets) == (
        "approve", "deny", ()
    )  # fmt: skip
    restated = "verdict: approve\n...on reflection...\n### Verdict: refer"
    assert getattr(lenient_parse("direct_verdict", restated, LABELS), "new", None) == "refer"
    assert isinstance(lenient_parse("direct_verdict", "I would approve.", LABELS), ParseFailure)
    assert isinstance(
        lenient_parse("direct_receipt", "old: approve\nnew: deny", LABELS), ParseFailure
    )
