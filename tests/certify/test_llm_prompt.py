"""The llm judge's configuration, prompt and verdict reading, without a server: every bad option
is one line naming its key before anything runs; the template fills each slot with its source;
a verdict is a declared label at the start of the first line (or the regex's group), anything
else is a replayable ``unparsable`` failure — never a default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reasonbench.certify import (
    AdjudicatorFailure,
    ConfigError,
    PluginOptions,
    make_adjudicator,
    run_certify,
)
from reasonbench.certify.llm import LlmAdjudicator
from reasonbench.certify.prompt import Template, VerdictReader

LABELS = ("approve", "deny", "refer")
SOURCES = ("case", "rubric", "instructions")
TEMPLATE = "{instructions}\nRubric: {rubric}\nClaim: {case}\nVerdict:"
URL = "http://127.0.0.1:9/v1"  # nothing listens there: a request would fail, none is sent


def judge(**options: Any) -> LlmAdjudicator:
    extra = {"model": "m", "template": TEMPLATE, **options}
    adjudicator = make_adjudicator(f"llm:{URL}", PluginOptions(5.0, extra, LABELS, SOURCES))
    assert isinstance(adjudicator, LlmAdjudicator)
    return adjudicator


def test_the_template_fills_each_slot_with_its_source() -> None:
    hybrid = {
        "case": {"item": "taxi", "amount": 40},
        "rubric": [1, "ü"],
        "instructions": "Be fair.",
    }
    assert judge().prompt(hybrid) == (
        'Be fair.\nRubric: [1, "ü"]\nClaim: {"item": "taxi", "amount": 40}\nVerdict:'
    )
    chat = judge(system="You are a judge.").prompt(hybrid)
    assert chat[0] == {"role": "system", "content": "You are a judge."}  # type: ignore[index]
    literal = Template("{{json}} {case}", "t")
    assert literal.slots == ("case",) and literal.fill({"case": "x"}) == "{json} x"


def test_the_id_names_what_decides_the_answer_and_nothing_else() -> None:
    base = judge().id
    assert base.startswith("llm:m [") and judge().id == base
    for change in ({"temperature": 0.7}, {"seed": 1}, {"max_tokens": 3}, {"template": TEMPLATE + " "},
                   {"verdict_regex": "(approve|deny)"}, {"extra_body": {"top_k": 5}}, {"model": "n"},
                   {"system": "s"}):  # fmt: skip
        assert judge(**change).id != base, change
    for same in ({"api_key_env": "KEY"}, {"retry": {"max_attempts": 2}}):
        assert judge(**same).id == base, same  # where and how it is asked: not the answer


def test_a_template_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "prompt.txt"
    path.write_text(TEMPLATE, encoding="utf-8")
    assert judge(template=None, template_file=str(path)).id == judge().id


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"template": "{case} {rubric}"}, "plugin_options.template: source 'instructions' has no {instructions} slot"),
        ({"template": TEMPLATE + " {grader}"}, "plugin_options.template: slot {grader} names no source of the cases"),
        ({"template": "{case.item} {rubric} {instructions}"}, "plugin_options.template: slot {case.item} is not a source name"),
        ({"template": "{case!r} {rubric} {instructions}"}, "plugin_options.template: slot {case!r} is not a source name"),
        ({"template": "{} {case}"}, "plugin_options.template: slot {} is not a source name"),
        ({"template": "{case {rubric}"}, "plugin_options.template: "),
        ({"template": "no slots"}, "plugin_options.template: the template has no {<source>} slot"),
        ({"template": None}, "plugin_options: give exactly one of template (text) and template_file"),
        ({"template_file": "x.txt"}, "plugin_options: give exactly one of template (text) and template_file"),
        ({"template": None, "template_file": "/nonexistent/p.txt"}, "plugin_options.template_file=/nonexistent/p.txt: cannot read it"),
        ({"model": None}, "plugin_options.model: name the served model (required)"),
        ({"temperature": "hot"}, "plugin_options.temperature='hot': wrong type"),
        ({"max_tokens": True}, "plugin_options.max_tokens=True: wrong type"),
        ({"temprature": 1.0}, "plugin_options.temprature: not an option of the llm judge"),
        ({"verdict_regex": "(unclosed"}, "plugin_options.verdict_regex='(unclosed': missing )"),
        ({"api": "responses"}, "plugin_options: api must be one of ['chat', 'completions']"),
        ({"temperature": -1.0}, "plugin_options: need temperature >= 0"),
        ({"retry": {"attempts": 2}}, "plugin_options.retry: "),
        ({"system": "s", "api": "completions"}, "plugin_options.system: a system prompt needs api=chat"),
    ],
)  # fmt: skip
def test_bad_options_are_one_line_naming_the_key(options: dict[str, Any], expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        judge(**options)
    message = str(info.value)
    assert message.startswith(expected) and "\n" not in message


def test_a_bad_option_stops_the_run_before_anything_runs(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    case = {"id": "c", "sources": {s: {"old": 1, "new": 2} for s in SOURCES}}
    cases.write_text(json.dumps(case) + "\n")
    out = tmp_path / "out"
    config = {
        "cases": cases,
        "adjudicator": f"llm:{URL}",
        "labels": LABELS,
        "out_dir": out,
        "progress": False,
        "plugin_options": {"model": "m", "template": "{case} {rubric} {grader}"},
    }
    from reasonbench.certify import CertifyConfig

    with pytest.raises(ConfigError, match=r"slot \{grader\} names no source"):
        run_certify(CertifyConfig(**config))
    assert not (out / "cache.jsonl").exists() and not (out / "receipts.jsonl").exists()
    with pytest.raises(ConfigError, match="the target is the server's base URL"):
        make_adjudicator("llm:localhost:8000", PluginOptions(5.0, {"model": "m"}, LABELS))


READER = VerdictReader(LABELS, None)
WORD_END = st.text(alphabet=" .,:;!?)-\n\t", min_size=1, max_size=3)


@given(
    label=st.sampled_from(LABELS),
    lead=st.text(alphabet=" \t*_#>`\"'\n", max_size=4),
    end=st.one_of(st.just(""), WORD_END.flatmap(lambda e: st.text(max_size=20).map(e.__add__))),
    upper=st.booleans(),
)
def test_a_label_starting_the_first_line_is_the_verdict(
    label: str, lead: str, end: str, upper: bool
) -> None:
    answer = lead + (label.upper() if upper else label) + end
    assert READER.read(answer) == label


@given(text=st.text(max_size=40))
def test_anything_else_is_unparsable_never_a_default(text: str) -> None:
    markup = " \t*_#>`\"'"
    line = next((x for x in text.splitlines() if x.lstrip(markup)), "").lstrip(markup)

    def starts_with(label: str) -> bool:  # the documented rule, restated
        after = line[len(label) : len(label) + 1]
        return line[: len(label)].casefold() == label and not (after.isalnum() or after == "_")

    starts = any(starts_with(label) for label in LABELS)
    try:
        verdict = READER.read(text)
    except AdjudicatorFailure as failure:
        assert not starts and failure.kind == "unparsable" and failure.replayable
    else:
        assert starts and verdict in LABELS


def test_glued_words_and_blank_answers_are_unparsable() -> None:
    for answer, detail in (
        (" approveStatement", "the answer's first line starts with no declared label: 'approveStatement'"),
        ("\n\n\n", "the answer is blank: '\\n\\n\\n'"),
        ("", "the answer is blank: ''"),
        ("I would deny it", "the answer's first line starts with no declared label: 'I would deny it'"),
    ):  # fmt: skip
        with pytest.raises(AdjudicatorFailure) as info:
            READER.read(answer)
        assert (info.value.kind, info.value.detail, info.value.replayable) == (
            "unparsable", detail, True,
        )  # fmt: skip


def test_the_regex_reads_its_group_and_checks_the_label() -> None:
    named = VerdictReader(LABELS, r"Verdict:\s*(?P<verdict>\w+)")
    assert named.read("Reasoning... Verdict: DENY.") == "deny"
    assert VerdictReader(LABELS, r"\[(\w+)\]").read("so [refer]") == "refer"
    assert VerdictReader(LABELS, r"(?i)approve|deny").read("we Deny") == "deny"
    with pytest.raises(AdjudicatorFailure) as info:
        named.read("Verdict: maybe")
    assert info.value.kind == "label" and info.value.replayable
    with pytest.raises(AdjudicatorFailure) as info:
        named.read("no verdict here")
    assert info.value.kind == "unparsable" and info.value.replayable


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


@given(a=JSON, b=JSON)
def test_a_slot_is_its_source_as_is_if_text_else_as_json(a: object, b: object) -> None:
    def shown(value: object) -> str:
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    template = Template("<{a}|{{b}}|{b}>", "t")
    assert template.fill({"a": a, "b": b}) == f"<{shown(a)}|{{b}}|{shown(b)}>"
