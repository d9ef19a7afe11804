"""The lenient reading (reported beside the strict parse, never instead) and the progress lines."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from reasonbench.evaluate import Progress, lenient_parse
from reasonbench.strata.organizational.model import LABELS
from reasonbench.targets import Parsed, parse_target

VERDICTS = sorted(LABELS)


@given(
    st.sampled_from(VERDICTS), st.sampled_from(VERDICTS), st.sampled_from(["none", "G", "G+N | A"])
)
def test_lenient_agrees_with_strict_where_strict_parses(old: str, new: str, receipt: str) -> None:
    text = f"old: {old}\nnew: {new}\nreceipt: {receipt}"
    strict = parse_target("direct_receipt", text, LABELS)
    if isinstance(strict, Parsed):
        assert lenient_parse("direct_receipt", text, LABELS) == strict


def test_lenient_reads_wrapped_answers_the_strict_parser_refuses() -> None:
    wrapped = (
        "Let me check the authority first.\n\n**Old:** approve\n- **New:** `Deny`.\n"
        "Receipt: None\nThat is my answer."
    )
    assert not isinstance(parse_target("direct_receipt", wrapped, LABELS), Parsed)
    lenient = lenient_parse("direct_receipt", wrapped, LABELS)
    assert isinstance(lenient, Parsed) and (lenient.old, lenient.new, lenient.sets) == (
        "approve", "deny", ()
    )  # fmt: skip
    restated = "verdict: approve\n...on reflection...\n### Verdict: refer"
    assert getattr(lenient_parse("direct_verdict", restated, LABELS), "new", None) == "refer"
    assert not isinstance(lenient_parse("direct_verdict", "I would approve.", LABELS), Parsed)
    assert not isinstance(
        lenient_parse("direct_receipt", "old: approve\nnew: deny", LABELS), Parsed
    )


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_progress_off_a_terminal_prints_rate_and_eta_lines() -> None:
    out = Pipe()
    bar = Progress(10, "evaluate x", stream=out, interval_s=0.0)
    bar(4)
    bar.update(6)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("evaluate x: 4/10 answers (40%), ") and "/s, ETA " in lines[0]
    assert lines[-1].startswith("evaluate x: 10/10 answers (100%)") and "ETA 0m00s" in lines[-1]
    quiet = Pipe()
    Progress(3, "q", stream=quiet, enabled=False).update(3)
    assert quiet.getvalue() == ""
