"""Values a case file may legally hold reach the adjudicator intact and come back in the outputs:
a lone surrogate escape (``"\\ud800"``), raw U+2028 / U+0085 inside strings (what
``json.dumps(..., ensure_ascii=False)`` writes), CRLF line ends. JSONL lines end at ``\\n`` only."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reasonbench.certify import CaseFileError, hybrid_key, read_cases, run_certify
from reasonbench.core.canonical import json_utf8
from tests.certify.adjudicators import FLAG, NOTE_NEW
from tests.certify.conftest import config, receipts

SCRIPT = Path(__file__).with_name("adjudicators.py")
# the characters str.splitlines() breaks at, a lone surrogate of each half, and what JSON escapes
AWKWARD = '\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ud800\udfff"\\'


def note_case(case_id: str, flag: bool = False) -> dict[str, Any]:
    return {
        "id": case_id,
        "sources": {
            "note": {"old": "on time", "new": NOTE_NEW},
            FLAG: {"old": False, "new": flag},
        },
    }


def write_jsonl(path: Path, cases: list[dict[str, Any]], ensure_ascii: bool = False) -> Path:
    """The file a user's ``json.dumps`` writes: raw U+2028 kept, a lone surrogate escaped (it
    has no UTF-8 form)."""
    text = "".join(json.dumps(c, ensure_ascii=ensure_ascii) + "\n" for c in cases)
    path.write_bytes(json_utf8(text))
    return path


def test_raw_line_separators_inside_strings_are_text(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [note_case("n-1"), note_case("n-2")])
    raw = path.read_bytes()
    assert "\u2028".encode() in raw and "\x85".encode() in raw and b"\\ud800" in raw
    case_set = read_cases(path)
    assert [(c.id, c.line) for c in case_set.cases] == [("n-1", 1), ("n-2", 2)]
    assert case_set.cases[0].new == (NOTE_NEW, False)


def test_crlf_ends_and_whitespace_lines_but_a_separator_alone_is_no_blank_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.jsonl"
    line = json.dumps(note_case("n-1"), ensure_ascii=True)
    path.write_bytes(f" \t\r\n{line}\r\n\r\n".encode())
    case_set = read_cases(path)
    assert [(c.id, c.line) for c in case_set.cases] == [("n-1", 2)]
    path.write_bytes(f"{line}\n\u2028\n".encode())  # U+2028 is not JSON whitespace
    with pytest.raises(CaseFileError, match=r"c\.jsonl:2: not valid JSON"):
        read_cases(path)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    # arbitrary text around at least one awkward character (hypothesis favours plain ones)
    value=st.builds("".join, st.tuples(st.text(), st.sampled_from(AWKWARD), st.text())),
    ensure_ascii=st.booleans(),
)
def test_any_json_string_round_trips_through_the_file_the_key_and_the_wire(
    tmp_path: Path, value: str, ensure_ascii: bool
) -> None:
    name = value.replace("+", "") or "s"  # a source name must not contain "+"
    case = {"id": value or "x", "sources": {name: {"old": value, "new": [value]}}}
    path = write_jsonl(tmp_path / "c.jsonl", [case], ensure_ascii)
    case_set = read_cases(path)
    (read,) = case_set.cases
    assert case_set.sources == (name,)
    assert (read.id, read.old, read.new) == (value or "x", (value,), ([value],))
    hybrid = read.hybrid(1, (name,))
    assert len(hybrid_key("command:x", hybrid)) == 64
    # what a command or an HTTP endpoint receives decodes to the very hybrid
    wire = json_utf8(json.dumps(hybrid, ensure_ascii=False))
    assert json.loads(wire.decode("utf-8")) == hybrid


@pytest.mark.parametrize(
    "adjudicator",
    [
        "python:tests.certify.adjudicators:note_rule",
        f"command:{sys.executable} {SCRIPT} note",
    ],
)
def test_a_run_over_such_values_certifies_and_writes_them(adjudicator: str, tmp_path: Path) -> None:
    odd_id = "n-\ud800\u2028"  # an id is any non-empty string: it is written back escaped
    path = write_jsonl(tmp_path / "c.jsonl", [note_case(odd_id), note_case("n-2", flag=True)])
    out = tmp_path / "out"
    labels = ("charged", "waived", "refer")
    summary = run_certify(config(path, out, adjudicator, labels=labels, execution="exhaustive"))
    assert summary.counts == {"changed": 2, "ambiguous": 0, "stable": 0, "uncertified": 0}
    rows = receipts(out)
    assert (rows[odd_id]["new"], rows[odd_id]["receipt"]) == ("waived", [["note"]])
    assert (rows["n-2"]["new"], rows["n-2"]["receipt"]) == ("refer", [[FLAG]])
    assert b"\\ud800" in (out / "receipts.jsonl").read_bytes()
    # in prose the surrogate reads as its escape (a table cell shows U+2028 as a line break)
    markdown = (out / "summary.md").read_text(encoding="utf-8")
    assert "sources note, flag\u2028\\ud800;" in markdown and "\\ud800} | 1 |" in markdown
    assert json.loads((out / "summary.json").read_text())["uncertified"] == []
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = run_certify(config(path, out, adjudicator, labels=labels, execution="exhaustive"))
    assert again.run is not None and again.run.executed == 0  # the cache keys them
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
