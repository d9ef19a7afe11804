"""What a failure says: ``abbreviate`` keeps a detail on one line of at most 120 characters (the
summary's tables and the one-line errors show it), ``parse_verdict`` quotes the output it
could not read, a failure reads ``<kind>: <detail>``, and an undeclared verdict names the
declared labels, down to the receipts."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.certify import AdjudicatorFailure, parse_verdict, run_certify
from reasonbench.certify.plugins import abbreviate
from tests.certify.conftest import config, receipts, write_cases


def test_abbreviate_flattens_whitespace_and_cuts_at_the_limit() -> None:
    assert abbreviate(" judge \n exploded\t\tat  line 3 ") == "judge exploded at line 3"
    exactly = "x" * 120
    assert abbreviate(exactly) == exactly  # the default limit is 120 characters
    cut = abbreviate("y" * 121)
    assert cut == "y" * 119 + "…" and len(cut) == 120
    assert abbreviate("abcdef", limit=4) == "abc…"
    assert abbreviate("abcd", limit=4) == "abcd"


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("I would say pass", "output is neither JSON nor a bare label: 'I would say pass'"),
        ("  pass\n  fail ", "output is neither JSON nor a bare label: 'pass fail'"),
        ("1", 'JSON output must be a string or {"verdict": "<label>"}: \'1\''),
        ('{"label": "pass"}', 'JSON output must be a string or {"verdict": "<label>"}: '
                              '\'{"label": "pass"}\''),
    ],
)  # fmt: skip
def test_unreadable_output_is_quoted_in_the_failure(text: str, detail: str) -> None:
    with pytest.raises(AdjudicatorFailure) as info:
        parse_verdict(text)
    assert (info.value.kind, info.value.detail) == ("unparsable", detail)
    assert str(info.value) == f"unparsable: {detail}"


def test_an_undeclared_verdict_names_the_declared_labels(tmp_path: Path) -> None:
    cases = write_cases(tmp_path / "cases.jsonl")
    out = tmp_path / "out"
    spec = "python:tests.certify.adjudicators:maybe_on_new_rubric"
    run_certify(config(cases, out, spec, execution="exhaustive"))
    details = {f["detail"] for f in receipts(out)["lower-mark"]["failures"]}
    assert details == {
        "verdict 'maybe' is not one of the declared labels ['fail', 'pass', 'refer']"
    }
