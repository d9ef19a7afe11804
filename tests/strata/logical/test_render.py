"""Rendering: three template families, source order honoured, complete and compact prompts,
and data files validated at load."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import reasonbench.strata.logical.render as logical_render
from reasonbench.core import GNA
from reasonbench.strata.base import Transition
from reasonbench.strata.logical import HELD_OUT_FAMILIES, LogicalStratum, World
from reasonbench.strata.logical.templates import load_templates, parse_templates
from reasonbench.strata.logical.vocabulary import DATA_DIR, parse_vocabulary
from reasonbench.strata.logical.world import atom_str

ORDERS = list(itertools.permutations(GNA))


@pytest.fixture(scope="module")
def cases(stratum: LogicalStratum, worlds: list[World]) -> list[Transition]:
    rng = random.Random("render")
    out = []
    for world in worlds[:120]:
        case = stratum.sample_transition(world, rng, rng.choice([("G",), ("N", "A"), GNA]))
        assert case is not None
        out.append(case)
    return out


def test_three_families_one_held_out(stratum: LogicalStratum) -> None:
    assert stratum.template_families == ("plain", "formal", "qa")
    assert set(HELD_OUT_FAMILIES) < set(stratum.template_families)


def test_sections_follow_the_source_order(stratum: LogicalStratum, cases: list[Transition]) -> None:
    titles = {
        f: {s: load_templates()[f][s]["title"] for s in GNA} for f in stratum.template_families
    }
    for case, (family, order) in zip(
        cases, itertools.cycle(itertools.product(stratum.template_families, ORDERS))
    ):
        rendering = stratum.render(case, family, order)
        assert rendering.template_family == family and rendering.source_order == order
        positions = [rendering.text.index(titles[family][s]) for s in order]
        assert positions == sorted(positions)


def test_formal_rendering_shows_every_old_fact_rule_and_change(
    stratum: LogicalStratum, cases: list[Transition]
) -> None:
    for case in cases:
        text = stratum.render(case, "formal", GNA).text
        for atom in (*case.old["G"].atoms, *case.new["G"].atoms):
            assert atom_str(atom) in text
        for rule in (*case.old["N"].rules, *case.new["N"].rules):
            assert f"R{rule.id}: " in text
        assert atom_str(tuple(case.context["query"])) in text
        unchanged = [s for s in GNA if case.old[s] == case.new[s]]
        assert text.count("delta: none") == len(unchanged)


def test_prompts_are_compact(stratum: LogicalStratum, cases: list[Transition]) -> None:
    for family in stratum.template_families:
        words = sorted(len(stratum.render(c, family, GNA).text.split()) for c in cases)
        assert words[len(words) // 2] < 250 and words[-1] < 320, family


def test_renderings_differ_by_family_and_order_only_in_form(
    stratum: LogicalStratum, cases: list[Transition]
) -> None:
    case = cases[0]
    texts = {stratum.render(case, f, o).text for f in stratum.template_families for o in ORDERS}
    assert len(texts) == 3 * 6
    assert stratum.render(case, "plain", GNA).text == stratum.render(case, "plain", GNA).text


def test_plain_english_reads_like_ruletaker(stratum: LogicalStratum, worlds: list[World]) -> None:
    state = worlds[0].state
    same = Transition("x", state, state, (), {"query": ["kind", "bob"]})
    text = stratum.render(same, "plain", GNA).text
    assert "Rule 1: If " in text and "Statement: Bob is kind." in text
    assert text.count("Revision: none.") == 3


def test_unknown_family_or_order_is_rejected(
    stratum: LogicalStratum, cases: list[Transition]
) -> None:
    with pytest.raises(ValueError, match="unknown template family"):
        stratum.render(cases[0], "klingon", GNA)
    with pytest.raises(ValueError, match="permutation"):
        stratum.render(cases[0], "plain", ("G", "N"))


def _templates() -> dict[str, object]:
    data: dict[str, object] = yaml.safe_load(
        (DATA_DIR / "templates.yaml").read_text(encoding="utf-8")
    )
    return data


def test_template_file_errors_name_the_key() -> None:
    data = _templates()
    data["plain"]["rule"] = "Rule {id}: If {premises} then {conclusion} {oops}"  # type: ignore[index]
    with pytest.raises(ValueError, match=r"plain\.rule: placeholders"):
        parse_templates(data)
    data = _templates()
    del data["formal"]["G"]["title"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"formal\.G needs exactly the keys"):
        parse_templates(data)
    data = _templates()
    data["qa"]["style"] = "poetic"  # type: ignore[index]
    with pytest.raises(ValueError, match="style"):
        parse_templates(data)


def test_vocabulary_file_errors_name_the_entry(tmp_path: Path) -> None:
    good = yaml.safe_load((DATA_DIR / "vocabulary.yaml").read_text(encoding="utf-8"))
    bad = {**good, "entities": [*good["entities"], {"name": "Bob Smith", "text": "Bob"}]}
    with pytest.raises(ValueError, match="not an identifier"):
        parse_vocabulary(bad)
    dup = {**good, "relations": [*good["relations"], {"name": "bob", "text": "bobs"}]}
    with pytest.raises(ValueError, match="used twice"):
        parse_vocabulary(dup)
    with pytest.raises(ValueError, match="expected exactly the keys"):
        parse_vocabulary({"entities": []})
    path = tmp_path / "data"
    path.mkdir()
    (path / "vocabulary.yaml").write_text(yaml.safe_dump(bad), encoding="utf-8")
    (path / "templates.yaml").write_text(
        (DATA_DIR / "templates.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="not an identifier"):
        LogicalStratum(data_dir=path)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 119), st.integers(0, 2), st.integers(0, len(ORDERS) - 1)),
        min_size=1,
        max_size=8,
    )
)
def test_memoised_listings_render_what_a_fresh_rendering_does(
    stratum: LogicalStratum, cases: list[Transition], picks: list[tuple[int, int, int]]
) -> None:
    # A sequence of renderings (cases of several worlds, families and orders, so listings are
    # kept, found and passed over) equals each rendering made with nothing memoised.
    logical_render._LISTINGS.clear()
    kept = [stratum.render(cases[i], stratum.template_families[f], ORDERS[o]) for i, f, o in picks]
    for (i, f, o), rendering in zip(picks, kept, strict=True):
        logical_render._LISTINGS.clear()
        assert stratum.render(cases[i], stratum.template_families[f], ORDERS[o]) == rendering
    # the inverse control shows the new state as old: its listing is another entry
    inverse = Transition(cases[0].unit_id, cases[0].new, cases[0].old, (), cases[0].context)
    memo = stratum.render(inverse, "plain", GNA)
    logical_render._LISTINGS.clear()
    assert stratum.render(inverse, "plain", GNA) == memo
