"""The metric registry: known answers on hand-built cases, undefined rates, pooling over seeds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.metrics import (
    CUBE_CELL_ACCURACY,
    DRIFT_GIVEN_STABLE,
    DRIFT_RATE,
    ENDPOINT_ACCURACY,
    INERTIA_GIVEN_CHANGE,
    METRICS,
    MISATTRIBUTION_GIVEN_CHANGE,
    PARSE_FAILURE_RATE,
    RECEIPT_ACCURACY,
    RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS,
    REVISED_VERDICT_ACCURACY,
    REVISED_VERDICT_GAP,
    pool,
    summarize,
)
from reasonbench.analysis.scoring import carried
from reasonbench.core import GNA, Answer, Cube
from tests.analysis.helpers import CHANGED, STABLE, gold, scored


def values(rows: list, target: str = "direct_receipt") -> dict[str, float | None]:  # type: ignore[type-arg]
    return {k: v.value for k, v in summarize(rows, carried(target)).metrics.items()}


def pred(old: str | None, new: str | None, sets: tuple[int, ...] | None) -> Answer:
    return Answer(old, new, sets)


def test_accounting_batch_known_answers() -> None:
    """The batch of the former core.accounting test, through the one metric definition."""
    s, c = gold("s", STABLE), gold("c", CHANGED)
    rows = [
        scored(s, pred("deny", "deny", ())),  # no change, all correct
        scored(gold("s2", STABLE), pred("deny", "approve", (1,))),  # drift
        scored(gold("c1"), pred("deny", "deny", ())),  # inertia
        scored(gold("c2"), pred("deny", "approve", (2,))),  # misattribution, endpoints right
        scored(c, pred("deny", "approve", (1,))),  # attributed
        scored(gold("c3"), pred("refer", "approve", (1,))),  # attributed, old verdict wrong
    ]
    v = values(rows)
    assert v[DRIFT_RATE] == pytest.approx(1 / 6)
    assert v[DRIFT_GIVEN_STABLE] == pytest.approx(1 / 2)
    assert v[INERTIA_GIVEN_CHANGE] == pytest.approx(1 / 4)
    assert v[MISATTRIBUTION_GIVEN_CHANGE] == pytest.approx(1 / 4)
    assert v[REVISED_VERDICT_ACCURACY] == pytest.approx(4 / 6)
    assert v[ENDPOINT_ACCURACY] == pytest.approx(3 / 6)
    assert v[RECEIPT_ACCURACY] == pytest.approx(3 / 6)
    # both endpoints right on gold changes: c2 and c; one of them has the wrong receipt
    sep = summarize(rows, carried("direct_receipt")).metrics[RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS]
    assert (sep.numerator, sep.denominator, sep.value) == (1.0, 2.0, 0.5)
    # gap on gold changes: revised verdict right on 3 of 4, receipt right on 2 of 4
    assert v[REVISED_VERDICT_GAP] == pytest.approx((3 - 2) / 4)


def test_empty_and_stable_only_rates_are_undefined_not_zero() -> None:
    empty = values([])
    assert empty[RECEIPT_ACCURACY] is None and empty[RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS] is None
    stable = values([scored(gold("s", STABLE), pred("deny", "deny", ()))])
    assert stable[INERTIA_GIVEN_CHANGE] is None and stable[DRIFT_GIVEN_STABLE] == 0.0


def test_applicability_comes_from_the_target() -> None:
    verdict_only = values(
        [scored(gold("c"), Answer(None, "approve", None), "direct_verdict")], "direct_verdict"
    )
    assert verdict_only[REVISED_VERDICT_ACCURACY] == 1.0
    assert RECEIPT_ACCURACY not in verdict_only and CUBE_CELL_ACCURACY not in verdict_only
    cube = Cube(GNA, CHANGED)
    cubes = values([scored(gold("c"), Answer.of_cube(cube), "cube")], "cube")
    assert cubes[CUBE_CELL_ACCURACY] == 1.0 and cubes[RECEIPT_ACCURACY] == 1.0


@pytest.mark.parametrize(
    "target", ["direct_verdict", "direct_receipt", "rationale_receipt", "cube"]
)
def test_parse_failures_are_wrong_on_every_metric(target: str) -> None:
    rows = [scored(gold(f"c{i}"), None, target) for i in range(3)]
    rows += [scored(gold(f"s{i}", STABLE), None, target) for i in range(2)]
    v = values(rows, target)
    assert v[PARSE_FAILURE_RATE] == 1.0
    for name, value in v.items():
        if name != PARSE_FAILURE_RATE and name != RECEIPT_ERROR_GIVEN_CORRECT_ENDPOINTS:
            assert value == 0.0, name  # 0, never undefined: the method answered and was wrong
    assert (RECEIPT_ACCURACY in v) == (
        target != "direct_verdict"
    )  # from the target, not the fields


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=12), min_size=1, max_size=5))
def test_pooled_is_sum_of_numerators_over_sum_of_denominators(seeds: list[list[bool]]) -> None:
    summaries = []
    for s, rights in enumerate(seeds):
        rows = [scored(gold(f"e{i}"), pred("deny", "approve", (1,) if ok else (2,)), seed=s)
                for i, ok in enumerate(rights)]  # fmt: skip
        summaries.append(summarize(rows, carried("direct_receipt")))
    pooled = pool(summaries).metrics[RECEIPT_ACCURACY]
    assert pooled.denominator == sum(len(r) for r in seeds)
    assert pooled.value == pytest.approx(sum(map(sum, seeds)) / sum(len(r) for r in seeds))


def test_every_metric_is_registered_once_with_a_description() -> None:
    names = METRICS.names()
    assert len(set(names)) == len(names) and all(METRICS.get(n).description for n in names)
    assert [n for n in names if METRICS.get(n).co_primary] == [
        REVISED_VERDICT_ACCURACY,
        RECEIPT_ACCURACY,
    ]
