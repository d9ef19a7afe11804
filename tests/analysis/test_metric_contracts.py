"""Metric building blocks and the consistency tallies against their definitions, over many
examples (a single example hides a miscount): rate(), the outcome shares, pooling, subgroups,
metric info, cube cell agreement and the error bound (found by mutation testing,
docs/testing.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.consistency import paired_consistency
from reasonbench.analysis.metrics import METRICS, pool, rate, summarize
from reasonbench.analysis.metrics.base import metric_info
from reasonbench.analysis.metrics.builtin import _is
from reasonbench.analysis.metrics.subgroups import SUBGROUPS, subgroups
from reasonbench.analysis.scoring import carried
from reasonbench.core import GNA, Answer, Cube, Outcome
from tests.analysis.helpers import CHANGED, STABLE, gold, scored
from tests.analysis.test_consistency import pair

LABELS = ("approve", "deny", "refer")
cells = st.lists(st.sampled_from(LABELS), min_size=8, max_size=8).map(tuple)


def test_rate_counts_hits_among_the_selected() -> None:
    rows = [scored(gold("a"), Answer("deny", "approve", (1,))), scored(gold("b", STABLE), None)]
    attributed = rate(_is(Outcome.ATTRIBUTED))
    assert [attributed(r) for r in rows] == [(1.0, 1.0), (0.0, 1.0)]
    among_changes = rate(_is(Outcome.ATTRIBUTED), lambda r: r.gold.receipt.sets != ())
    assert [among_changes(r) for r in rows] == [(1.0, 1.0), None]
    assert _is(Outcome.UNPARSED)(rows[1]) and not _is(Outcome.UNPARSED)(rows[0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(cells, st.one_of(st.none(), cells)), min_size=1, max_size=6))
def test_pooling_sums_numerators_denominators_and_sizes(examples: list) -> None:  # type: ignore[type-arg]
    rows = [
        scored(gold(f"e{i}", g), None if s is None else Answer.of_cube(Cube(GNA, s)), "cube")
        for i, (g, s) in enumerate(examples)
    ]
    fields = carried("cube")
    half = len(rows) // 2
    pooled = pool([summarize(rows[:half], fields), summarize(rows[half:], fields)])
    whole = summarize(rows, fields)
    assert pooled.n == whole.n == len(rows)
    assert pooled.metrics == whole.metrics
    groups = subgroups(rows, fields)
    assert list(groups) == list(SUBGROUPS.names())
    by_stratum = groups["stratum"]
    assert list(by_stratum) == ["organizational"] and by_stratum["organizational"] == whole
    sizes = subgroups(rows, fields, names=["min_receipt_size"])
    assert list(sizes) == ["min_receipt_size"]
    assert list(sizes["min_receipt_size"]) == sorted(sizes["min_receipt_size"])
    assert sum(s.n for s in sizes["min_receipt_size"].values()) == len(rows)
    for value, summary in sizes["min_receipt_size"].items():
        members = [r for r in rows if r.gold.subgroup_size == value]
        assert summary == summarize(members, fields)


def test_metric_info_describes_every_metric() -> None:
    info = metric_info()
    assert list(info) == list(METRICS.names())
    for name, item in info.items():
        assert item.description == METRICS.get(name).description
        assert item.co_primary is METRICS.get(name).co_primary
    assert any(item.co_primary for item in info.values())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(st.none(), cells), st.one_of(st.none(), cells)), min_size=1, max_size=5
    )
)
def test_cube_cell_agreement_over_many_pairs(said: list) -> None:  # type: ignore[type-arg]
    pairs = [
        pair(
            "permutation",
            None if p is None else Answer.of_cube(Cube(GNA, p)),
            None if c is None else Answer.of_cube(Cube(GNA, c)),
            "cube",
            i=i,
        )
        for i, (p, c) in enumerate(said)
    ]
    result = paired_consistency({p.gold.example_id: p for p, _ in pairs}, [c for _, c in pairs])
    agree = [
        [a == b for a, b in zip(p, c, strict=True)]
        if p is not None and c is not None
        else [False] * 8
        for p, c in said
    ]
    cell = result.cells["permutation"]
    assert cell.pairs == len(said)
    assert cell.all_cells == sum(all(a) for a in agree) / len(said)
    assert cell.cells == sum(map(sum, agree)) / (8 * len(said))
    rate_ = result.pooled["permutation"]
    assert rate_.error_lower_bound == (1 - rate_.consistency) / 2  # type: ignore[operator]


def test_consistent_pairs_bound_nothing() -> None:
    said = Answer.of_cube(Cube(GNA, CHANGED))
    result = paired_consistency(
        *_as_maps([pair("permutation", said, said, "cube", i=i) for i in range(3)])
    )
    rate_ = result.pooled["permutation"]
    assert (rate_.pairs, rate_.checkable, rate_.consistent) == (3, 3, 3)
    assert (rate_.consistency, rate_.error_lower_bound) == (1.0, 0.0)
    assert result.cells["permutation"].pairs == 3 and result.cells["permutation"].all_cells == 1.0


def _as_maps(pairs: list) -> tuple:  # type: ignore[type-arg]
    return {p.gold.example_id: p for p, _ in pairs}, [c for _, c in pairs]


def test_pairs_are_tallied_per_stratum_and_orphans_skipped() -> None:
    said = Answer.of_cube(Cube(GNA, CHANGED))
    a = pair("permutation", said, said, stratum="logical", i=0)
    b = pair("permutation", said, None, stratum="organizational", i=1)
    orphan = pair("distractor", said, said, i=2)[1]  # its parent is not among the parents
    parents = {a[0].gold.example_id: a[0], b[0].gold.example_id: b[0]}
    # a parent row among the controls (no control kind) is skipped too
    result = paired_consistency(parents, [orphan, a[0], a[1], b[1]])
    assert list(result.strata) == ["logical", "organizational"]
    assert result.strata["logical"]["permutation"].consistent == 1
    assert result.strata["organizational"]["permutation"].consistent == 0
    assert result.pooled["permutation"].pairs == 2 and "distractor" not in result.pooled
    # a pair the target cannot be checked on is never counted consistent
    v = pair(
        "inverse", Answer(None, "approve", None), Answer(None, "deny", None), "direct_verdict", i=3
    )
    rate_ = paired_consistency({v[0].gold.example_id: v[0]}, [v[1]]).pooled["inverse"]
    assert (rate_.pairs, rate_.checkable, rate_.consistent) == (1, 0, 0)


def test_unit_sums_cover_units_without_examples() -> None:
    import numpy as np

    from reasonbench.analysis.bootstrap import unit_sums

    sums = unit_sums(np.array([[True, False, True]]), np.array([0, 0, 1]), n_units=4)
    assert sums.tolist() == [[1.0, 1.0, 0.0, 0.0]]
