"""Comparisons and their settings on hand-built scored examples (found by mutation testing,
docs/testing.md): when a comparison is not run, the p-value before Holm, subgroup differences
computed within the subgroup, the co-primary check, and the ``comparisons:`` entry's forms."""

from __future__ import annotations

import pytest

from reasonbench.analysis.inference import ComparisonSpec, compare, design, distribution
from reasonbench.analysis.methods import SettingsError
from reasonbench.analysis.metrics import (
    CUBE_CELL_ACCURACY,
    GOLD_CHANGE_RECEIPT_ACCURACY,
    RECEIPT_ACCURACY,
)
from reasonbench.analysis.record import Comparison
from reasonbench.analysis.scoring import Scored
from tests.analysis.helpers import per_seed

N = 24  # examples: odd ones logical, even ones organizational (per_seed)


def two_methods() -> dict[str, dict[int, list[Scored]]]:
    """``a`` right on the logical examples only, ``b`` right everywhere, two seeds each."""
    logical_only = [i % 2 == 1 for i in range(N)]
    return {"a": per_seed("a", [logical_only] * 2), "b": per_seed("b", [[True] * N] * 2)}


def test_a_comparison_without_its_split_or_methods_is_not_run() -> None:
    d = design("dev", two_methods(), 50, 0)
    assert d is not None and d.split == "dev" and d.n_units == 6
    for spec, where in [
        (ComparisonSpec("ab", "a", "b", "fam", "dev"), None),  # no design for the split
        (ComparisonSpec("ab", "a", "zz", "fam", "dev"), d),  # b has no records
        (ComparisonSpec("ab", "zz", "b", "fam", "dev"), d),  # a has no records
    ]:
        assert compare(spec, where, [RECEIPT_ACCURACY]) == Comparison(
            "ab", spec.a, spec.b, "fam", "dev", "not run"
        )
    ran = compare(ComparisonSpec("ab", "a", "b", "fam", "dev"), d, [RECEIPT_ACCURACY])
    assert ran.status == "ok"
    effect = ran.outcomes[RECEIPT_ACCURACY]
    assert effect.estimate == pytest.approx(-0.5)
    assert effect.p_holm == effect.p_value  # Holm within the family comes later (holm_within)


def test_subgroup_differences_are_computed_within_the_subgroup() -> None:
    d = design("test_locked", two_methods(), 50, 0)
    spec = ComparisonSpec("ab", "a", "b", "fam", by=("stratum",))
    ran = compare(spec, d, [RECEIPT_ACCURACY])
    by_stratum = ran.subgroups["stratum"]
    assert sorted(by_stratum) == ["logical", "organizational"]
    logical = by_stratum["logical"][RECEIPT_ACCURACY]
    organizational = by_stratum["organizational"][RECEIPT_ACCURACY]
    assert (logical.estimate, logical.low, logical.high) == (0.0, 0.0, 0.0)
    assert (organizational.estimate, organizational.low, organizational.high) == (-1.0, -1.0, -1.0)
    # and each method's own distribution within one subgroup
    assert d is not None
    assert distribution(d, "a", RECEIPT_ACCURACY, ("stratum", "organizational"))[0] == 0.0
    assert distribution(d, "a", RECEIPT_ACCURACY, ("stratum", "logical"))[0] == 1.0


@pytest.mark.parametrize("metric", [GOLD_CHANGE_RECEIPT_ACCURACY, CUBE_CELL_ACCURACY])
def test_only_a_metric_counting_every_example_once_is_bootstrapped(metric: str) -> None:
    # the first has no value on a stable example, the second counts 8 cells per example
    d = design("test_locked", two_methods(), 50, 0)
    assert d is not None
    with pytest.raises(SettingsError) as refused:
        distribution(d, "a", metric)
    assert str(refused.value) == (
        f"metric {metric} is bootstrapped and compared only where it counts every example once "
        "(a rate over all examples of the split)"
    )


def test_a_comparison_entry() -> None:
    spec = ComparisonSpec.of({"name": "x", "a": "m1", "b": "m2", "by": "stratum"})
    assert spec == ComparisonSpec("x", "m1", "m2", "x", "test_locked", ("stratum",))
    listed = ComparisonSpec.of({"name": "x", "a": "m1", "b": "m2", "by": ["stratum", "ambiguity"]})
    assert listed.by == ("stratum", "ambiguity")
    with pytest.raises(SettingsError) as unknown:
        ComparisonSpec.of({"name": "x", "a": "m1", "b": "m2", "with": 1})
    assert str(unknown.value) == (
        "comparison {'name': 'x', 'a': 'm1', 'b': 'm2', 'with': 1}: unknown key(s) ['with'] "
        "(keys: a, b, by, family, metrics, name, split)"
    )
