"""The llm judge's template and verdict reader at their edges: whole error messages (a user reads
them to fix a configuration), a slot with a format spec, a hybrid missing a source, answers
that are only markup, labels that are prefixes of one another, words glued to a label, and a
regex whose ``verdict`` group is not its first. Everything is built inside the tests."""

from __future__ import annotations

import pytest

from reasonbench.certify import AdjudicatorFailure, ConfigError
from reasonbench.certify.prompt import Template, VerdictReader

LABELS = ("approve", "deny", "refer")


def config_error(text: str, sources: tuple[str, ...] | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        template = Template(text, "plugin_options.template")
        if sources is not None:
            template.check(sources)
    return str(info.value)


def unreadable(reader: VerdictReader, answer: str) -> AdjudicatorFailure:
    with pytest.raises(AdjudicatorFailure) as info:
        reader.read(answer)
    assert info.value.replayable  # an answer on record: the cache keeps it
    return info.value


@pytest.mark.parametrize("slot", ["{case:>10}", "{case!s:>10}", "{case!r}"])
def test_a_slot_with_a_conversion_or_format_is_refused_as_written(slot: str) -> None:
    assert config_error(f"Claim: {slot}") == (
        f"plugin_options.template: slot {slot} is not a source name (a slot is {{<source>}}; "
        "write {{ and }} for literal braces)"
    )


def test_slots_and_sources_must_match_and_the_message_says_which() -> None:
    assert config_error("{case} {grader}", ("case", "rubric", "notes")) == (
        "plugin_options.template: slot {grader} names no source of the cases "
        "(sources: case, rubric, notes)"
    )
    assert config_error("{case} {rubric}", ("case", "rubric", "notes")) == (
        "plugin_options.template: source 'notes' has no {notes} slot (the judge would never "
        "see it, so it could not change a verdict)"
    )


def test_a_hybrid_without_a_slots_source_is_a_crash_naming_it() -> None:
    template = Template("{case} / {rubric} / {notes}", "t")
    with pytest.raises(AdjudicatorFailure) as info:
        template.fill({"case": 1})
    assert (info.value.kind, info.value.detail) == ("crash", "the hybrid has no source 'rubric'")
    assert not info.value.replayable


def test_a_reader_needs_the_declared_labels() -> None:
    with pytest.raises(ConfigError) as info:
        VerdictReader((), None)
    assert str(info.value) == "the llm judge needs the run's declared labels"
    assert VerdictReader(LABELS, None).read("Deny.") == "deny"


def test_an_answer_of_markup_alone_is_unparsable_and_shown() -> None:
    failure = unreadable(VerdictReader(LABELS, None), "**\n> ")
    assert (failure.kind, failure.detail) == (
        "unparsable",
        "the answer's first line starts with no declared label: '** >'",
    )


def test_the_longest_label_that_starts_the_line_wins() -> None:
    """``refer`` followed by ``-`` would match too (``-`` ends a word): the longer declared label
    is tried first, whatever the labels' order or case."""
    for labels in (("refer", "Refer-to-panel"), ("Refer-to-panel", "refer")):
        reader = VerdictReader(labels, None)
        assert reader.read("REFER-TO-PANEL: the amount is unclear") == "Refer-to-panel"
        assert reader.read("refer - the amount is unclear") == "refer"


@pytest.mark.parametrize("answer", ["approved.", "approve_it", "approve_"])
def test_a_label_glued_to_a_word_is_not_the_verdict(answer: str) -> None:
    failure = unreadable(VerdictReader(LABELS, None), answer)
    assert (failure.kind, failure.detail) == (
        "unparsable",
        f"the answer's first line starts with no declared label: {answer!r}",
    )


def test_the_verdict_group_wins_over_the_first_group() -> None:
    reader = VerdictReader(LABELS, r"(Final|Draft) verdict: (?P<verdict>\w+)")
    assert reader.read("Draft verdict: refer. Final verdict: Approve") == "refer"
    # without a verdict group, group 1 is the verdict: here the word before it
    unnamed = unreadable(
        VerdictReader(LABELS, r"(Final|Draft) verdict: (\w+)"), "Final verdict: deny"
    )
    assert (unnamed.kind, unnamed.detail) == (
        "label",
        "verdict 'Final' is not one of the declared labels ['approve', 'deny', 'refer']",
    )


def test_regex_failures_show_the_answer_and_the_labels() -> None:
    reader = VerdictReader(LABELS, r"Verdict:\s*(?P<verdict>\w+)")
    missing = unreadable(reader, "no verdict here")
    assert (missing.kind, missing.detail) == (
        "unparsable",
        "verdict_regex finds no verdict in the answer: 'no verdict here'",
    )
    undeclared = unreadable(reader, "Verdict: maybe")
    assert (undeclared.kind, undeclared.detail) == (
        "label",
        "verdict 'maybe' is not one of the declared labels ['approve', 'deny', 'refer']",
    )
