"""``certify_case`` on its own, with a table of verdicts standing in for the executor: the
defaults of its arguments (no re-asking; the sample of seed 0), the assumption a receipt states
(``monotone`` / ``monotone in fail < refer < pass``), the budget counting interior cells only,
labels read only under ``monotone`` with an order, and an unstable case naming its cells (``∅``
for the empty one) while keeping the assumption violation found on the way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import pytest

from reasonbench.certify.cases import Case
from reasonbench.certify.casework import CaseResult, certify_case
from reasonbench.certify.execute import CellRuns, Executor
from reasonbench.core.sources import cell_key, parse_cell_key
from reasonbench.core.verdict_order import Violation

ABCD = ("a", "b", "c", "d")
ABC = ("a", "b", "c")
AB = ("a", "b")


class TableExecutor:
    """Stands in for :class:`Executor`: the case's old values are 0 and its new values 1, so a
    hybrid is its cell; each cell's runs come from ``table`` (a label, or a tuple of one label
    per run), and every cell handed to ``run`` is recorded, in order, in ``asked``."""

    def __init__(self, sources: tuple[str, ...], table: Mapping[int, str | tuple[str, ...]]):
        self.sources = sources
        self.table = table
        self.asked: list[int] = []

    def run(self, hybrid: Mapping[str, Any]) -> CellRuns:
        mask = sum(1 << i for i, name in enumerate(self.sources) if hybrid[name])
        self.asked.append(mask)
        runs = self.table[mask]
        return CellRuns(runs if isinstance(runs, tuple) else (runs,))


def certify(
    sources: tuple[str, ...],
    table: Mapping[int, str | tuple[str, ...]],
    execution: str,
    **options: Any,
) -> tuple[CaseResult, list[int]]:
    """The result of certifying case ``c1`` over ``table``, and the cells asked, in order."""
    case = Case("c1", 1, (0,) * len(sources), (1,) * len(sources))
    fake = TableExecutor(sources, table)
    result = certify_case(case, sources, cast(Executor, fake), execution, **options)
    return result, fake.asked


def cells(keys: str, sources: tuple[str, ...]) -> list[int]:
    """Masks from space-separated cell keys (``a+b c``)."""
    return [parse_cell_key(key, sources) for key in keys.split()]


# pass exactly when ``a`` is new: monotone, receipt {a}; the search asks 5 interior cells and
# leaves 9 to the assumption
A_DECIDES = {mask: "pass" if mask & 1 else "fail" for mask in range(16)}
SEARCH = [0, 15, *cells("a+b b a b+c b+c+d", ABCD)]


def test_by_default_no_inferred_cell_is_reasked() -> None:
    # verify_fraction defaults to 0.0: the search's cells and not one more
    result, asked = certify(ABCD, A_DECIDES, "monotone")
    assert asked == SEARCH
    assert result.reasked == 0 and result.queries == 5
    assert (result.status, result.sets) == ("changed", (1,))


def test_the_default_seed_is_zero() -> None:
    # a quarter of the 9 inferred cells, rounded up: 3, those seed 0 ranks first; seed 1 ranks
    # others first, so the default seed is visible in which cells were re-asked
    result, asked = certify(ABCD, A_DECIDES, "monotone", verify_fraction=0.25)
    assert asked == SEARCH + cells("b+d a+b+c a+c+d", ABCD)
    assert result.reasked == 3 and result.queries == 8
    _, seed0 = certify(ABCD, A_DECIDES, "monotone", verify_fraction=0.25, verify_seed=0)
    _, seed1 = certify(ABCD, A_DECIDES, "monotone", verify_fraction=0.25, verify_seed=1)
    assert seed0 == asked
    assert seed1 == SEARCH + cells("a+d b+d a+c+d", ABCD)


def test_the_receipt_states_the_assumption_it_relies_on() -> None:
    # the result line and receipts.jsonl quote this text (docs/certify.md, `assumption`)
    plain, _ = certify(ABC, A_DECIDES, "monotone")
    ordered, _ = certify(ABC, A_DECIDES, "monotone", order=("fail", "refer", "pass"))
    exact, _ = certify(ABC, A_DECIDES, "adaptive")
    assert plain.assumption == "monotone"
    assert ordered.assumption == "monotone in fail < refer < pass"
    assert exact.assumption is None
    assert plain.sets == ordered.sets == exact.sets == (1,)


def test_the_budget_counts_interior_cells_only() -> None:
    # the endpoints are always asked: with budget 0 a stable case is still certified, and a
    # changed one runs out at its first interior cell, with both endpoint verdicts known
    stable, asked = certify(AB, {0: "pass", 3: "pass"}, "adaptive", budget=0)
    assert (stable.status, stable.reason, stable.queries, asked) == ("stable", None, 0, [0, 3])
    changed, asked = certify(AB, {0: "fail", 1: "pass", 2: "fail", 3: "pass"}, "adaptive", budget=0)
    assert (changed.status, changed.reason, changed.queries) == ("uncertified", "budget", 0)
    assert changed.message == "receipt not certified within the budget of 0 queries"
    assert (changed.old, changed.new, asked) == ("fail", "pass", [0, 3])
    assert changed.sets is None


# cell b's runs disagree between two labels that are both insufficient for fail -> pass
NOISY_B = {0: "fail", 1: "pass", 2: ("fail", "refer"), 3: "pass"}


def test_labels_are_read_only_under_monotone_with_an_order() -> None:
    # only the order-monotone check reads labels; otherwise fail/refer on b is the same answer
    # (insufficient), so the receipt stands and b is only reported (an order is refused
    # outside execution=monotone: the next tests)
    for execution in ("adaptive", "monotone"):
        result, _ = certify(AB, NOISY_B, execution)
        assert (result.status, result.sets) == ("changed", (1,)), execution
        assert result.unstable == ((2, ("fail", "refer")),)
    ordered, _ = certify(AB, NOISY_B, "monotone", order=("fail", "refer", "pass"))
    assert (ordered.status, ordered.reason) == ("uncertified", "unstable")
    assert ordered.message == "the receipt depends on unstable cell(s) b"


def test_an_unstable_empty_cell_is_named_by_its_symbol() -> None:
    # the endpoints' labels are always read; the empty cell's key is "", which the message
    # spells ∅ so that it names a cell
    table = {0: ("fail", "refer"), 1: "pass", 2: ("fail", "pass"), 3: "pass"}
    result, _ = certify(AB, table, "adaptive")
    assert (result.status, result.reason, result.sets) == ("uncertified", "unstable", None)
    assert result.message == "the receipt depends on unstable cell(s) ∅, b"
    assert [cell_key(mask, AB) for mask, _ in result.unstable] == ["", "b"]


def test_an_unstable_case_keeps_the_assumption_violation() -> None:
    # re-asking a+b (inferred sufficient from a) contradicts the assumption; b+c is unstable,
    # so the case is uncertified, but the violation found on the way is still reported
    table = {0: "fail", 1: "pass", 2: "fail", 3: "fail", 4: "fail", 5: "pass", 7: "pass"}
    unstable, _ = certify(ABC, {**table, 6: ("fail", "pass")}, "monotone", verify_fraction=1.0)
    assert (unstable.status, unstable.reason) == ("uncertified", "unstable")
    assert unstable.message == "the receipt depends on unstable cell(s) b+c"
    assert unstable.violation == Violation(
        lower=1, upper=3, lower_verdict="pass", upper_verdict="fail"
    )
    assert unstable.caught_by_reasking
    stable, _ = certify(ABC, {**table, 6: "fail"}, "monotone", verify_fraction=1.0)
    assert (stable.status, stable.sets, stable.assumption) == ("changed", (1,), None)
    assert stable.violation == unstable.violation


@pytest.mark.parametrize("execution", ["exhaustive", "adaptive"])
def test_an_order_outside_monotone_is_refused_not_ignored(execution: str) -> None:
    with pytest.raises(ValueError, match=r"^order is only used by execution=monotone$"):
        certify(AB, {0: "fail", 3: "pass"}, execution, order=("fail", "pass"))


def test_an_unknown_execution_is_named() -> None:
    with pytest.raises(ValueError) as caught:
        certify(AB, {0: "fail", 3: "pass"}, "greedy")
    assert str(caught.value) == (
        "unknown execution 'greedy'; one of ['exhaustive', 'adaptive', 'monotone']"
    )
