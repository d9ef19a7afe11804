"""More inference contracts (found by mutation testing, docs/testing.md): the ``comparisons:`` and
``repairs:`` entries word for word, what a comparison compares, the design of a split, the
repair's consistency per arm, and hand-computed comparisons, repairs and Holm families."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.bootstrap import (
    Interval,
    paired_p_value,
    percentile_interval,
    replicate_means,
)
from reasonbench.analysis.consistency import PairOutcome
from reasonbench.analysis.inference import (
    ComparisonSpec,
    RepairSpec,
    SplitDesign,
    _consistency,
    _keys,
    co_primary,
    compare,
    design,
    distribution,
    holm_within,
    method_intervals,
    repair,
)
from reasonbench.analysis.methods import SettingsError
from reasonbench.analysis.metrics import (
    METRICS,
    RECEIPT_ACCURACY,
    REVISED_VERDICT_ACCURACY,
    SUBGROUPS,
)
from reasonbench.analysis.record import (
    Comparison,
    Effect,
    MethodIntervals,
    Repair,
    SplitInference,
)
from reasonbench.analysis.scoring import Scored
from reasonbench.controls import CONTROL_KINDS
from reasonbench.core import Answer
from tests.analysis.helpers import gold, per_seed, scored

RV, RA, ENDPOINT = REVISED_VERDICT_ACCURACY, RECEIPT_ACCURACY, "endpoint_accuracy"
COMPARISON_KEYS = "(keys: a, b, by, family, metrics, name, split)"
REPAIR_KEYS = "(keys: after, before, kind, name)"


def refusal(call: Callable[[Mapping[str, object]], object], spec: Mapping[str, object]) -> str:
    """The one-line message of a refused entry (``call``: ComparisonSpec.of or RepairSpec.of)."""
    with pytest.raises(SettingsError) as refused:
        call(spec)
    return str(refused.value)


# --- ComparisonSpec ----------------------------------------------------------------------------


def test_a_comparison_defaults_to_the_locked_test_and_no_subgroups_or_metrics() -> None:
    """docs/analysis.md §5: ``split`` defaults to ``test_locked``; no ``by``, no ``metrics``
    (the co-primary outcomes)."""
    spec = ComparisonSpec("n", "a", "b", "f")
    assert (spec.split, spec.by, spec.metrics) == ("test_locked", (), ())


def test_a_minimal_comparison_entry_is_its_own_family_on_the_locked_test() -> None:
    """Only name, a and b: the family is the comparison's name (a family of its own)."""
    spec = ComparisonSpec.of({"name": "x", "a": "m1", "b": "m2"})
    assert spec == ComparisonSpec("x", "m1", "m2", "x", "test_locked", (), ())


def test_a_full_comparison_entry_keeps_every_key_in_its_order() -> None:
    """Every documented key is accepted, and ``by`` / ``metrics`` keep the order written."""
    spec = ComparisonSpec.of(
        {
            "name": "x",
            "a": "m1",
            "b": "m2",
            "family": "fam",
            "split": "dev",
            "by": ["stratum", "ambiguity", "min_receipt_size"],
            "metrics": [ENDPOINT, RA],
        }
    )
    assert spec == ComparisonSpec(
        "x", "m1", "m2", "fam", "dev", ("stratum", "ambiguity", "min_receipt_size"), (ENDPOINT, RA)
    )


def test_by_and_metrics_as_a_tuple_or_a_single_name() -> None:
    """A YAML list, a tuple or one bare name all read as a tuple of names."""
    tupled = ComparisonSpec.of(
        {"name": "x", "a": "m1", "b": "m2", "by": ("min_receipt_size",), "metrics": (RV, RA)}
    )
    assert (tupled.by, tupled.metrics) == (("min_receipt_size",), (RV, RA))
    single = ComparisonSpec.of(
        {"name": "x", "a": "m1", "b": "m2", "by": "ambiguity", "metrics": ENDPOINT}
    )
    assert (single.by, single.metrics) == (("ambiguity",), (ENDPOINT,))


@pytest.mark.parametrize("empty", [None, "", [], ()])
def test_empty_optional_keys_take_their_defaults(empty: object) -> None:
    """A key written but left empty (``family:`` with nothing after it) is the default."""
    spec = ComparisonSpec.of(
        {
            "name": "x",
            "a": "m1",
            "b": "m2",
            "family": empty,
            "split": empty,
            "by": empty,
            "metrics": empty,
        }
    )
    assert spec == ComparisonSpec("x", "m1", "m2", "x", "test_locked", (), ())


def test_comparison_names_are_read_as_strings() -> None:
    """YAML may read a name as a number; the spec holds strings."""
    spec = ComparisonSpec.of({"name": 7, "a": 1, "b": 2, "family": 3, "split": 4})
    assert spec == ComparisonSpec("7", "1", "2", "3", "4", (), ())


def test_an_unknown_subgroup_is_refused_by_the_comparison_name() -> None:
    """One line: the comparison, the key, and the registry's message (with the closest name)."""
    tail = SUBGROUPS.unknown("stratumm")
    assert tail.startswith("unknown subgroup 'stratumm'; registered: ")
    assert tail.endswith("; did you mean 'stratum'?")
    for by in ("stratumm", ["stratum", "stratumm"], ("stratumm",)):
        message = refusal(ComparisonSpec.of, {"name": "cmp", "a": "m1", "b": "m2", "by": by})
        assert message == f"comparison cmp: by: {tail}"


def test_an_unknown_metric_is_refused_by_the_comparison_name() -> None:
    tail = METRICS.unknown("receipt_acuracy")
    assert tail.startswith("unknown metric 'receipt_acuracy'; registered: ")
    assert tail.endswith(f"; did you mean {RA!r}?")
    for metrics in ("receipt_acuracy", [RV, "receipt_acuracy"], ("receipt_acuracy",)):
        entry = {"name": "cmp", "a": "m1", "b": "m2", "metrics": metrics}
        assert refusal(ComparisonSpec.of, entry) == f"comparison cmp: metrics: {tail}"


def test_missing_comparison_keys_are_named_sorted_with_every_key() -> None:
    message = refusal(ComparisonSpec.of, {"a": "m1"})
    assert message == f"comparison {{'a': 'm1'}}: missing ['b', 'name'] {COMPARISON_KEYS}"


def test_unknown_comparison_keys_are_named_sorted() -> None:
    entry = {"name": "x", "a": "m1", "b": "m2", "zeta": 1, "alpha": 2}
    assert refusal(ComparisonSpec.of, entry) == (
        "comparison {'name': 'x', 'a': 'm1', 'b': 'm2', 'zeta': 1, 'alpha': 2}: "
        f"unknown key(s) ['alpha', 'zeta'] {COMPARISON_KEYS}"
    )


def test_missing_keys_are_reported_before_unknown_ones() -> None:
    """An entry both missing and adding keys names what is missing (the first thing to fix)."""
    message = refusal(ComparisonSpec.of, {"name": "x", "a": "m1", "c": "m2"})
    assert (
        message
        == f"comparison {{'name': 'x', 'a': 'm1', 'c': 'm2'}}: missing ['b'] {COMPARISON_KEYS}"
    )


KEY_NAMES = ["a", "b", "c", "d", "e"]


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.sampled_from(KEY_NAMES)),
    st.sets(st.sampled_from(KEY_NAMES)),
    st.sets(st.sampled_from(KEY_NAMES)),
)
def test_keys_refuses_exactly_missing_or_unknown_keys(
    present: set[str], required: set[str], optional: set[str]
) -> None:
    """Refused iff a required key is absent or a key is neither required nor optional; the
    message names the entry, the sorted missing (else unknown) keys and every allowed key."""
    spec = {k: 0 for k in sorted(present)}
    missing, unknown = sorted(required - present), sorted(present - required - optional)
    allowed = ", ".join(sorted(required | optional))
    if not missing and not unknown:
        _keys(spec, required, optional, "entry")
        return
    with pytest.raises(SettingsError) as refused:
        _keys(spec, required, optional, "entry")
    problem = f"missing {missing}" if missing else f"unknown key(s) {unknown}"
    assert str(refused.value) == f"entry {spec!r}: {problem} (keys: {allowed})"


# --- ComparisonSpec.outcomes -------------------------------------------------------------------


def test_outcomes_default_to_the_co_primary_ones_both_methods_have() -> None:
    """No ``metrics``: revised-verdict and receipt accuracy, in the registry's order, not the
    order of ``applicable``; a metric only one method has is not compared."""
    assert co_primary() == [RV, RA]
    spec = ComparisonSpec("x", "a", "b", "f")
    assert spec.outcomes({"a": [RA, ENDPOINT, RV], "b": [RA, RV]}) == [RV, RA]
    assert spec.outcomes({"a": [RA, RV], "b": [RA]}) == [RA]  # b has no revised verdict
    assert spec.outcomes({"a": [RV], "b": [RA, RV]}) == [RV]  # a has no receipt
    assert spec.outcomes({"a": [ENDPOINT], "b": [ENDPOINT]}) == []  # not co-primary


def test_outcomes_of_a_method_without_applicable_metrics_are_empty() -> None:
    spec = ComparisonSpec("x", "a", "b", "f")
    assert spec.outcomes({"b": [RV, RA]}) == []
    assert spec.outcomes({"a": [RV, RA]}) == []
    assert spec.outcomes({}) == []


def test_named_metrics_replace_the_co_primary_ones_in_their_order() -> None:
    spec = ComparisonSpec("x", "a", "b", "f", metrics=(ENDPOINT, RA))
    both = [RV, RA, ENDPOINT]
    assert spec.outcomes({"a": both, "b": both}) == [ENDPOINT, RA]
    assert spec.outcomes({"a": both, "b": [RV, RA]}) == [RA]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([RV, RA, ENDPOINT, "drift_rate"]), unique=True, max_size=4),
    st.sets(st.sampled_from([RV, RA, ENDPOINT, "drift_rate"])),
    st.sets(st.sampled_from([RV, RA, ENDPOINT, "drift_rate"])),
)
def test_outcomes_are_the_wanted_metrics_both_methods_have_in_order(
    metrics: list[str], mine: set[str], theirs: set[str]
) -> None:
    spec = ComparisonSpec("x", "a", "b", "f", metrics=tuple(metrics))
    got = spec.outcomes({"a": sorted(mine), "b": sorted(theirs), "c": [RV, RA, ENDPOINT]})
    wanted = metrics or [RV, RA]
    assert set(got) == set(wanted) & mine & theirs
    assert got == sorted(got, key=wanted.index)  # the order of the wanted metrics


# --- RepairSpec --------------------------------------------------------------------------------


def test_a_repair_entry() -> None:
    spec = RepairSpec.of({"name": "r", "after": "m_after", "before": "m_before", "kind": "inverse"})
    assert spec == RepairSpec("r", "m_after", "m_before", "inverse")
    numbered = RepairSpec.of({"name": 1, "after": 2, "before": 3, "kind": "permutation"})
    assert numbered == RepairSpec("1", "2", "3", "permutation")


def test_an_unknown_control_kind_is_refused_by_the_repair_name() -> None:
    tail = CONTROL_KINDS.unknown("permutaton")
    assert tail.startswith("unknown control 'permutaton'; registered: ")
    assert tail.endswith("; did you mean 'permutation'?")
    entry = {"name": "fix", "after": "a", "before": "b", "kind": "permutaton"}
    assert refusal(RepairSpec.of, entry) == f"repair fix: kind: {tail}"


def test_bad_repair_keys_are_refused_word_for_word() -> None:
    missing = {"name": "r", "after": "a", "kind": "permutation"}
    assert refusal(RepairSpec.of, missing) == (
        f"repair {missing!r}: missing ['before'] {REPAIR_KEYS}"
    )
    unknown = {"name": "r", "after": "a", "before": "b", "kind": "permutation", "by": []}
    assert refusal(RepairSpec.of, unknown) == (
        f"repair {unknown!r}: unknown key(s) ['by'] {REPAIR_KEYS}"
    )
    assert refusal(RepairSpec.of, {}) == (
        f"repair {{}}: missing ['after', 'before', 'kind', 'name'] {REPAIR_KEYS}"
    )


# --- design ------------------------------------------------------------------------------------


def test_no_methods_no_design() -> None:
    assert design("test_locked", {}, 10, 0) is None


def test_the_design_of_a_split_by_hand() -> None:
    """12 examples in 12 units u0..u11 (written in reverse): ids and units sorted as strings,
    each example's unit column, the subgroup values per example, the draws of the split."""
    rows = per_seed("m", [[True] * 12], units=12)
    methods = {"m": {0: list(reversed(rows[0]))}, "k": per_seed("k", [[False] * 12], units=12)}
    d = design("dev", methods, 30, 4)
    assert d is not None
    assert d.split == "dev"
    assert d.ids == tuple(f"e{i:03d}" for i in range(12))
    units = ("u0", "u1", "u10", "u11", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9")
    assert d.units == units and d.n_units == 12
    assert d.unit_index.tolist() == [units.index(f"u{i}") for i in range(12)]
    assert d.unit_index.tolist() == [0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 2, 3]
    assert list(d.subgroup_of) == list(SUBGROUPS.names())  # registration order
    assert list(d.subgroup_of)[:3] == ["stratum", "min_receipt_size", "ambiguity"]
    assert d.subgroup_of["stratum"] == ("organizational", "logical") * 6
    assert d.subgroup_of["min_receipt_size"] == ("stable", "1", "1") * 4  # every third stable
    assert d.subgroup_of["ambiguity"] == ("stable", "unambiguous", "unambiguous") * 4
    assert (d.draws.split, d.draws.replicates, d.draws.seed) == ("dev", 30, 4)
    assert d.draws.units.shape == (30, 12)
    assert d.methods is methods


def test_units_shared_by_examples_are_one_column() -> None:
    d = design("test_locked", {"m": per_seed("m", [[True] * 12], units=3)}, 10, 0)
    assert d is not None and d.units == ("u0", "u1", "u2") and d.n_units == 3
    assert d.unit_index.tolist() == [0, 1, 2] * 4 and d.draws.units.shape == (10, 3)


# --- method_intervals ------------------------------------------------------------------------


def test_method_intervals_of_constant_methods() -> None:
    """A method right everywhere has CI [1, 1] in every replicate, one wrong everywhere
    [0, 0]; methods in name order, each with its own seed count and only its outcomes."""
    methods = {
        "zeta": per_seed("zeta", [[True] * 12] * 3),
        "alpha": per_seed("alpha", [[False] * 12]),
    }
    d = design("test_locked", methods, 40, 0)
    assert d is not None
    result = method_intervals(d, {"zeta": [RA, RV], "alpha": [RV]})
    assert result == SplitInference(
        6,
        {
            "alpha": MethodIntervals(1, {RV: Interval(0.0, 0.0, 0.0)}),
            "zeta": MethodIntervals(3, {RA: Interval(1.0, 1.0, 1.0), RV: Interval(1.0, 1.0, 1.0)}),
        },
    )
    assert list(result.methods) == ["alpha", "zeta"]
    assert list(result.methods["zeta"].outcomes) == [RA, RV]


def test_method_intervals_are_the_95_percent_percentile_intervals() -> None:
    """A method varying by example and seed: its interval is the 95 % percentile interval of
    its own bootstrap distribution around the mean over its seeds (low below high)."""
    rows = [[bool((3 * i + s) % 4) for i in range(12)] for s in range(3)]
    d = design("test_locked", {"m": per_seed("m", rows)}, 200, 2)
    assert d is not None
    result = method_intervals(d, {"m": [RA]})
    estimate, dist = distribution(d, "m", RA)
    assert estimate == pytest.approx(np.mean(rows))
    ci = result.methods["m"].outcomes[RA]
    assert ci == Interval(estimate, *np.quantile(dist, [0.025, 0.975]))
    assert ci.low < ci.estimate < ci.high


# --- compare -----------------------------------------------------------------------------------


def constant_methods(seeds: int = 2) -> dict[str, dict[int, list[Scored]]]:
    """``right`` right everywhere, ``wrong`` wrong everywhere (both outcomes), same seeds."""
    return {
        "right": per_seed("right", [[True] * 12] * seeds),
        "wrong": per_seed("wrong", [[False] * 12] * seeds),
    }


def test_a_certain_difference_by_hand() -> None:
    """right − wrong is 1 in every one of the 50 replicates: CI [1, 1] and the add-one two-sided
    p-value 2 · 1/51 (no replicate at or below 0); p_holm is the p-value until Holm. The
    breakdown follows ``by``'s order, its values sorted, the outcomes in the order asked."""
    d = design("test_locked", constant_methods(), 50, 0)
    spec = ComparisonSpec("rw", "right", "wrong", "fam", by=("min_receipt_size", "stratum"))
    ran = compare(spec, d, [RA, RV])
    p = 2 * (1 / 51)
    one = Interval(1.0, 1.0, 1.0)
    assert ran == Comparison(
        "rw",
        "right",
        "wrong",
        "fam",
        "test_locked",
        "ok",
        {RA: Effect(1.0, 1.0, 1.0, p, p), RV: Effect(1.0, 1.0, 1.0, p, p)},
        {
            "min_receipt_size": {"1": {RA: one, RV: one}, "stable": {RA: one, RV: one}},
            "stratum": {"logical": {RA: one, RV: one}, "organizational": {RA: one, RV: one}},
        },
    )
    assert list(ran.outcomes) == [RA, RV]
    assert list(ran.subgroups) == ["min_receipt_size", "stratum"]
    assert list(ran.subgroups["min_receipt_size"]) == ["1", "stable"]
    assert list(ran.subgroups["stratum"]) == ["logical", "organizational"]
    assert list(ran.subgroups["stratum"]["logical"]) == [RA, RV]


def test_the_difference_is_a_minus_b() -> None:
    """wrong − right is −1 everywhere: the same p-value, the CI mirrored."""
    d = design("dev", constant_methods(), 50, 0)
    ran = compare(ComparisonSpec("wr", "wrong", "right", "g", "dev"), d, [RA])
    p = 2 * (1 / 51)
    assert ran == Comparison(
        "wr", "wrong", "right", "g", "dev", "ok", {RA: Effect(-1.0, -1.0, -1.0, p, p)}, {}
    )


def test_no_difference_has_p_value_one() -> None:
    """Two methods with the same answers: every replicate difference is 0, so both tails hold
    every replicate and p = min(1, 2 · 51/51) = 1."""
    d = design(
        "test_locked", {**constant_methods(), "same": per_seed("same", [[True] * 12] * 2)}, 50, 0
    )
    ran = compare(ComparisonSpec("s", "right", "same", "fam"), d, [RV])
    assert ran.outcomes == {RV: Effect(0.0, 0.0, 0.0, 1.0, 1.0)}
    assert ran.subgroups == {}


def test_an_uncertain_difference_is_the_paired_bootstrap_of_a_minus_b() -> None:
    """a varies by example and seed, b is right on half: the effect is the percentile CI
    (low below high) and two-sided p-value of the replicate differences of the two methods'
    distributions on the shared draws; a subgroup's interval is the same within the subgroup."""
    a_rows = [[bool((3 * i + s) % 4) for i in range(12)] for s in range(2)]
    methods = {
        "a": per_seed("a", a_rows),
        "b": per_seed("b", [[i % 2 == 0 for i in range(12)]] * 2),
    }
    d = design("test_locked", methods, 200, 1)
    assert d is not None
    ran = compare(ComparisonSpec("ab", "a", "b", "f", by=("stratum",)), d, [RA])
    (est_a, dist_a), (est_b, dist_b) = distribution(d, "a", RA), distribution(d, "b", RA)
    ci = percentile_interval(est_a - est_b, dist_a - dist_b)
    p = paired_p_value(dist_a - dist_b)
    assert ran.outcomes == {RA: Effect(ci.estimate, ci.low, ci.high, p, p)}
    assert ran.outcomes[RA].low < ran.outcomes[RA].estimate < ran.outcomes[RA].high
    assert ran.outcomes[RA].estimate == pytest.approx(np.mean(a_rows) - 0.5)
    logical = ("stratum", "logical")
    (sub_a, sdist_a), (sub_b, sdist_b) = (distribution(d, m, RA, logical) for m in "ab")
    assert ran.subgroups["stratum"]["logical"][RA] == percentile_interval(
        sub_a - sub_b, sdist_a - sdist_b
    )


def test_a_not_run_comparison_keeps_its_configured_fields() -> None:
    spec = ComparisonSpec("n", "right", "absent", "fam", "cardinality_test", ("stratum",))
    d = design("cardinality_test", constant_methods(), 20, 0)
    expected = Comparison("n", "right", "absent", "fam", "cardinality_test", "not run", {}, {})
    assert compare(spec, d, [RA]) == expected
    assert compare(ComparisonSpec("n", "absent", "right", "fam"), d, [RA]).status == "not run"
    assert compare(spec, None, [RA]) == expected


def test_subgroup_estimates_are_within_the_subgroup() -> None:
    """a right on the examples i % 3 != 0 (the changed ones), b right on none: within
    min_receipt_size the differences are 1 (size 1) and 0 (stable); pooled 2/3."""
    rights = [i % 3 != 0 for i in range(12)]
    methods = {"a": per_seed("a", [rights] * 2), "b": per_seed("b", [[False] * 12] * 2)}
    d = design("test_locked", methods, 60, 0)
    ran = compare(ComparisonSpec("ab", "a", "b", "f", by=("min_receipt_size",)), d, [RA])
    assert ran.outcomes[RA].estimate == pytest.approx(2 / 3)
    sizes = ran.subgroups["min_receipt_size"]
    assert sizes["1"][RA] == Interval(1.0, 1.0, 1.0)
    assert sizes["stable"][RA] == Interval(0.0, 0.0, 0.0)
    assert d is not None
    assert distribution(d, "a", RA, ("min_receipt_size", "stable"))[0] == 0.0
    assert distribution(d, "a", RA, ("min_receipt_size", "1"))[0] == 1.0


# --- holm_within -------------------------------------------------------------------------------


def effects(*ps: float) -> dict[str, Effect]:
    return {m: Effect(0.1, -0.2, 0.3, p, p) for m, p in zip([RV, RA], ps, strict=False)}


def test_holm_within_each_family_by_hand() -> None:
    """Family f holds three (comparison, outcome) p-values 0.01, 0.04, 0.03: Holm gives
    3 · 0.01 = 0.03, 2 · 0.03 = 0.06 and max(0.06, 1 · 0.04) = 0.06. Family g's single 0.02 is
    left alone; a comparison without outcomes passes through; the rest of each effect and
    comparison is unchanged, in the input order."""
    comparisons = [
        Comparison("c2", "a", "b", "f", "test_locked", "ok", effects(0.01, 0.04)),
        Comparison("c1", "a", "c", "g", "test_locked", "ok", effects(0.02)),
        Comparison("c3", "b", "c", "f", "dev", "ok", effects(0.03)),
        Comparison("c0", "x", "y", "f", "test_locked", "not run"),
    ]
    out = holm_within(comparisons)
    assert list(out) == ["c2", "c1", "c3", "c0"]
    assert out["c2"] == Comparison(
        "c2",
        "a",
        "b",
        "f",
        "test_locked",
        "ok",
        {RV: Effect(0.1, -0.2, 0.3, 0.01, 0.03), RA: Effect(0.1, -0.2, 0.3, 0.04, 0.06)},
    )
    assert out["c1"] == comparisons[1]  # alone in g: Holm changes nothing
    assert out["c3"] == Comparison(
        "c3", "b", "c", "f", "dev", "ok", {RV: Effect(0.1, -0.2, 0.3, 0.03, 0.06)}
    )
    assert out["c0"] == comparisons[3]
    assert holm_within([]) == {}


def test_holm_is_capped_at_one() -> None:
    out = holm_within([Comparison("c", "a", "b", "f", "dev", "ok", effects(0.6, 0.7))])
    assert {m: e.p_holm for m, e in out["c"].outcomes.items()} == {RV: 1.0, RA: 1.0}


# --- _consistency and repair ------------------------------------------------------------------


def locked(units: int = 4, replicates: int = 60) -> SplitDesign:
    """The locked test's design: 2 parents per unit u0..u{units-1}."""
    parents = [gold(f"e{i:03d}", unit=f"u{i % units}") for i in range(2 * units)]
    rows = {0: [scored(g, Answer.of_receipt(g.receipt)) for g in parents]}
    d = design("test_locked", {"m": rows}, replicates, 0)
    assert d is not None
    return d


def pair(
    unit: int,
    consistent: bool,
    *,
    kind: str = "permutation",
    checkable: bool = True,
    stratum: str | None = None,
) -> PairOutcome:
    """One pair of unit u{unit}; odd units logical, even ones organizational."""
    stratum = stratum or ("logical" if unit % 2 else "organizational")
    return PairOutcome(kind, stratum, f"u{unit}", checkable, consistent)


def two_seeds() -> dict[int, list[PairOutcome]]:
    """Seed 1 written first. Checkable permutation pairs on u0..u3: seed 0 T F T T, seed 1
    F F T F; beside them pairs that must not count (not checkable, another kind)."""
    noise = [
        pair(0, False, checkable=False),
        pair(1, True, checkable=False),
        pair(3, False, kind="distractor"),
        pair(2, True, kind="inverse"),
    ]
    return {
        1: [pair(0, False), pair(1, False), pair(2, True), pair(3, False), *noise],
        0: [*noise, pair(0, True), pair(1, False), pair(2, True), pair(3, True)],
    }


def test_consistency_counts_checkable_pairs_of_the_kind_by_hand() -> None:
    """Pooled: (3 + 1) consistent of 2 seeds × 4 checkable = 0.5; the distribution resamples
    the per-(seed, unit) sums [[1, 0, 1, 1], [0, 0, 1, 0]] over one pair per unit."""
    d = locked()
    result = _consistency(d, two_seeds(), "permutation", None)
    assert result is not None
    estimate, dist = result
    assert estimate == 0.5
    sums = np.array([[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]])
    expected = replicate_means(sums, np.ones(4), d.draws.resamples((0, 1)))
    assert np.array_equal(dist, expected)


def test_consistency_within_a_stratum_by_hand() -> None:
    """Logical (u1, u3): seed 0 F T, seed 1 F F: 1 of 4. Organizational (u0, u2): seed 0 T T,
    seed 1 F T: 3 of 4. The stratum's units alone are sized; the others have no pair."""
    d = locked()
    logical = _consistency(d, two_seeds(), "permutation", "logical")
    organizational = _consistency(d, two_seeds(), "permutation", "organizational")
    assert logical is not None and organizational is not None
    assert logical[0] == 0.25 and organizational[0] == 0.75
    resamples = d.draws.resamples((0, 1))
    expected = replicate_means(
        np.array([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]),
        np.array([0.0, 1.0, 0.0, 1.0]),
        resamples,
    )
    assert np.array_equal(logical[1], expected, equal_nan=True)
    assert _consistency(d, two_seeds(), "permutation", "agentic") is None


def test_consistency_of_another_kind_or_of_no_seed() -> None:
    d = locked()
    inverse = _consistency(d, two_seeds(), "inverse", None)  # one consistent u2 pair per seed
    assert inverse is not None and inverse[0] == 1.0
    assert np.all((inverse[1] == 1.0) | np.isnan(inverse[1]))
    assert _consistency(d, two_seeds(), "quarantine", None) is None
    assert _consistency(d, {}, "permutation", None) is None
    unchecked = {0: [pair(u, True, checkable=False) for u in range(4)]}
    assert _consistency(d, unchecked, "permutation", None) is None


def test_seeds_disagreeing_on_the_checkable_pairs_are_refused() -> None:
    """Checkability depends on target and gold alone: two seeds with checkable pairs on
    different units are an error, naming the kind and the (sorted) seeds."""
    pairs = {3: [pair(1, True)], 0: [pair(0, True)]}
    with pytest.raises(ValueError) as refused:
        _consistency(locked(), pairs, "permutation", None)
    assert str(refused.value) == "permutation pairs: seeds [0, 3] disagree on the checkable pairs"


SPEC = RepairSpec("fix", "after", "before", "permutation")


def arm(consistent: bool, seeds: list[int], units: int = 4) -> dict[int, list[PairOutcome]]:
    return {s: [pair(u, consistent) for u in range(units)] for s in seeds}


@pytest.mark.parametrize(
    "arms",
    [
        {"before": "b"},
        {"after": "a"},
        {"after": "a", "before": "empty"},
        {"after": "empty", "before": "b"},
        {},
    ],
)
def test_a_repair_without_an_arm_is_not_run(arms: dict[str, str]) -> None:
    """An arm without predictions (absent, or no seeds) makes the repair ``not run``, with its
    configured fields and nothing else."""
    given_ = {"a": arm(True, [0]), "b": arm(False, [0]), "empty": {}}
    pairs = {role: given_[which] for role, which in arms.items()}
    assert repair(SPEC, locked(), pairs) == Repair(
        "fix", "after", "before", "permutation", "not run"
    )


def test_a_repair_without_a_design_is_not_run() -> None:
    pairs = {"after": arm(True, [0]), "before": arm(False, [0])}
    assert repair(SPEC, None, pairs) == Repair("fix", "after", "before", "permutation", "not run")


def test_a_certain_repair_by_hand() -> None:
    """After always consistent, before never, the same seeds (written in another order):
    paired, after − before = 1 in every replicate, pooled and in each stratum (sorted)."""
    pairs = {"after": arm(True, [2, 0, 1]), "before": arm(False, [1, 2, 0])}
    fix = repair(SPEC, locked(), pairs)
    one = Interval(1.0, 1.0, 1.0)
    assert fix == Repair(
        "fix",
        "after",
        "before",
        "permutation",
        "ok",
        [0, 1, 2],
        [0, 1, 2],
        True,
        one,
        {"logical": one, "organizational": one},
    )
    assert list(fix.strata) == ["logical", "organizational"]
    worse = repair(RepairSpec("w", "before", "after", "permutation"), locked(), pairs)
    minus = Interval(-1.0, -1.0, -1.0)
    assert (worse.pooled, worse.strata) == (minus, {"logical": minus, "organizational": minus})


def test_unpaired_seed_lists_are_sorted() -> None:
    fix = repair(SPEC, locked(), {"after": arm(True, [4, 2]), "before": arm(False, [3, 1, 0])})
    assert (fix.seeds_after, fix.seeds_before, fix.seeds_paired) == ([2, 4], [0, 1, 3], False)
    assert fix.pooled == Interval(1.0, 1.0, 1.0)


def test_a_stratum_checkable_in_one_arm_only_has_no_interval() -> None:
    """Before has logical pairs only; after has both strata and an agentic pair that is not
    checkable: the repair is reported where both arms have checkable pairs (pooled, logical)."""
    after = {0: [*arm(True, [0])[0], pair(0, True, checkable=False, stratum="agentic")]}
    before = {0: [pair(1, False), pair(3, True)]}  # logical only: 1 of 2
    fix = repair(SPEC, locked(), {"after": after, "before": before})
    assert fix.status == "ok" and list(fix.strata) == ["logical"]
    assert fix.strata["logical"].estimate == 0.5
    assert fix.pooled is not None and fix.pooled.estimate == 0.5  # 4/4 − 1/2


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.lists(st.booleans(), min_size=8, max_size=8), min_size=1, max_size=3),
    st.lists(st.lists(st.booleans(), min_size=8, max_size=8), min_size=1, max_size=3),
)
def test_swapping_the_arms_negates_the_repair(
    after: list[list[bool]], before: list[list[bool]]
) -> None:
    """before − after is −(after − before): the estimate negated, the CI mirrored, pooled and per
    stratum (two pairs per unit u0..u3, seeds 0, 1, ...)."""

    def pairs_of(rows: list[list[bool]]) -> dict[int, list[PairOutcome]]:
        return {s: [pair(i % 4, ok) for i, ok in enumerate(row)] for s, row in enumerate(rows)}

    arms = {"after": pairs_of(after), "before": pairs_of(before)}
    d = locked(replicates=40)
    fix = repair(SPEC, d, arms)
    back = repair(RepairSpec("back", "before", "after", "permutation"), d, arms)
    assert fix.pooled is not None and back.pooled is not None
    expected = np.mean(after) - np.mean(before)  # every seed has the same 8 checkable pairs
    assert fix.pooled.estimate == pytest.approx(expected)
    assert set(fix.strata) == set(back.strata) == {"logical", "organizational"}
    for mine, theirs in [(fix.pooled, back.pooled), *((fix.strata[s], back.strata[s]) for s in fix.strata)]:  # fmt: skip
        assert mine.estimate == pytest.approx(-theirs.estimate)
        assert mine.low == pytest.approx(-theirs.high, abs=1e-12)
        assert mine.high == pytest.approx(-theirs.low, abs=1e-12)
