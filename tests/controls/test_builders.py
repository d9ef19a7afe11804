"""The control builders and the audit's structural checks on the toy stratum: what each builds,
the errors that name the parent, and the relations' handling of what a pair does not say (found
by mutation testing, docs/testing.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.controls import (
    CONTROL_KINDS,
    ControlError,
    identical,
    identical_cells,
    inverse_cells,
    inverse_consistent,
    inverse_cube,
    minimal_transversals,
    two_label_monotone,
)
from reasonbench.controls.builtin import DISTRACTOR_TRIES
from reasonbench.core import GNA, Answer, Cube, execute_cube, receipt_of
from reasonbench.strata.base import Transition
from reasonbench.strata.toy import ToyStratum, Unit

PARENT = "org-007"


def a_case(seed: int = 3) -> tuple[ToyStratum, Transition, Cube]:
    stratum = ToyStratum()
    rng = random.Random(seed)
    while True:
        t = stratum.sample_transition(Unit("org-007", 50), rng, GNA)
        if t is not None:
            cube = execute_cube(stratum.adjudicator(t.context), t.old, t.new)
            if cube.changed:
                return stratum, t, cube


def build(kind: str, stratum: Any, t: Transition, cube: Cube, seed: int = 0) -> Any:
    return CONTROL_KINDS.get(kind).build(
        stratum, t, cube, receipt_of(cube), GNA, random.Random(seed), PARENT
    )


def test_inverse_swaps_the_states_and_executes_its_cube() -> None:
    stratum, t, cube = a_case()
    built = build("inverse", stratum, t, cube)
    assert (built.transition.old, built.transition.new) == (t.new, t.old)
    assert built.transition.operators == ("inverse", *t.operators)
    assert built.transition.unit_id == t.unit_id and built.transition.context == t.context
    assert built.cube == inverse_cube(cube) and built.receipt == receipt_of(built.cube)
    assert built.order == GNA
    wrong = Cube(GNA, tuple(reversed(cube.verdicts)))
    if inverse_cube(wrong) != built.cube:
        with pytest.raises(ControlError, match=f"^{PARENT}: inverse cube is not the complement"):
            build("inverse", stratum, t, wrong)


def test_permutation_keeps_the_case_and_changes_the_order() -> None:
    stratum, t, cube = a_case()
    orders = {build("permutation", stratum, t, cube, seed).order for seed in range(40)}
    assert GNA not in orders and len(orders) == 5  # every other order of three sources
    built = build("permutation", stratum, t, cube, 1)
    assert built == build("permutation", stratum, t, cube, 1)  # deterministic in the RNG
    assert (built.transition, built.cube, built.receipt) == (t, cube, receipt_of(cube))


class Counting(ToyStratum):
    """The toy stratum with a distractor that changes the cube (or none at all)."""

    def __init__(self, changes: bool) -> None:
        super().__init__()
        self.changes = changes
        self.calls = 0

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        self.calls += 1
        if not self.changes:
            return None
        # the same states with another revised G: a different cube, never certified
        return Transition(transition.unit_id, transition.old, transition.old, (), {})


def test_distractor_is_certified_by_execution() -> None:
    stratum, t, cube = a_case()
    built = build("distractor", stratum, t, cube)
    assert built.transition.old["G"][2] == t.old["G"][2] + 100  # the toy's irrelevant noise
    assert (built.cube, built.receipt, built.order) == (cube, receipt_of(cube), GNA)
    for changes in (False, True):
        counting = Counting(changes)
        message = f"^{PARENT}: no certified distractor in {DISTRACTOR_TRIES} tries$"
        with pytest.raises(ControlError, match=message):
            build("distractor", counting, t, cube)
        assert counting.calls == DISTRACTOR_TRIES == 25


class Quarantining(ToyStratum):
    def __init__(self, result: str) -> None:
        super().__init__()
        self.result = result

    def quarantine_control(self, transition: Transition, rng: random.Random) -> Transition | None:
        if self.result == "none":
            return None
        if self.result == "changed":
            return Transition(transition.unit_id, transition.old, transition.old, (), {})
        return self.add_distractor(transition, rng)


def test_quarantine_errors_name_the_parent() -> None:
    _, t, cube = a_case()
    with pytest.raises(ControlError, match=f"^{PARENT}: stratum organizational cannot build"):
        build("quarantine", ToyStratum(), t, cube)
    with pytest.raises(ControlError, match=f"^{PARENT}: no injection satisfies Q1-Q3"):
        build("quarantine", Quarantining("none"), t, cube)
    with pytest.raises(ControlError, match=f"^{PARENT}: quarantined injection changed the cube"):
        build("quarantine", Quarantining("changed"), t, cube)
    built = build("quarantine", Quarantining("ok"), t, cube)
    assert (built.cube, built.receipt, built.order) == (cube, receipt_of(cube), GNA)
    assert built.transition.old != t.old


def test_structural_checks() -> None:
    parent = {"id": "p", "old_state": "o", "new_state": "n", "source_order": ["G", "N", "A"]}
    inverse, permutation = CONTROL_KINDS.get("inverse"), CONTROL_KINDS.get("permutation")
    swapped = {**parent, "id": "p-inv", "old_state": "n", "new_state": "o"}
    assert inverse.audit(parent, swapped) == []
    for bad in ({**swapped, "old_state": "o"}, {**swapped, "new_state": "n"}):
        assert inverse.audit(parent, bad) == ["p-inv: inverse does not swap the parent's states"]
    reordered = {**parent, "id": "p-perm", "source_order": ["N", "G", "A"]}
    assert permutation.audit(parent, reordered) == []
    problem = ["p-perm: permutation must keep the states and change the order"]
    for bad in (
        {**reordered, "source_order": parent["source_order"]},
        {**reordered, "old_state": "x"},
        {**reordered, "new_state": "x"},
    ):
        assert permutation.audit(parent, bad) == problem
    assert CONTROL_KINDS.get("distractor").audit(parent, reordered) == []


def test_relations_check_only_what_a_pair_says() -> None:
    said = Answer("deny", "approve", (1,))
    assert identical(said, said) is True
    assert identical(Answer(None, "approve", None), said) is True
    assert identical(Answer(None, "deny", None), said) is False
    assert identical(Answer(None, None, None), said) is None
    assert identical(Answer("deny", "approve", (2,)), said) is False
    assert identical(Answer("refer", "approve", (1,)), said) is False
    # not two-label monotone (a refer cell): only the endpoints are checked
    cube = Cube(
        GNA, ("deny", "approve", "refer", "approve", "approve", "approve", "approve", "approve")
    )
    assert not two_label_monotone(cube)
    assert inverse_consistent(said, Answer("approve", "deny", (7,)), cube) is True
    assert inverse_consistent(said, Answer("approve", "refer", (7,)), cube) is False
    assert inverse_consistent(Answer(None, None, None), Answer(None, None, None), cube) is None


def test_two_label_monotone_examples() -> None:
    up = ("deny", "approve", "deny", "approve", "deny", "approve", "deny", "approve")  # G decides
    assert two_label_monotone(Cube(GNA, up))
    assert not two_label_monotone(Cube(GNA, ("deny",) * 8))  # stable
    down = ("deny", "approve", "approve", "deny", "approve", "approve", "approve", "approve")
    assert not two_label_monotone(Cube(GNA, down))  # G+N is deny above G
    inverse = Cube(GNA, up)
    forward, backward = Answer.of_cube(inverse), Answer.of_cube(inverse_cube(inverse))
    assert inverse_consistent(forward, backward, inverse) is True
    assert inverse_consistent(forward, Answer(backward.old, backward.new, (6,)), inverse) is False


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda k: st.tuples(st.just(k), st.lists(st.integers(1, (1 << k) - 1), max_size=4))
    )
)
def test_minimal_transversals_by_brute_force(case: tuple[int, list[int]]) -> None:
    k, family = case
    got = minimal_transversals(tuple(family), k)
    hitting = [m for m in range(1 << k) if all(m & s for s in family)]
    minimal = {m for m in hitting if not any(h != m and h & m == h for h in hitting)}
    assert set(got) == minimal and len(got) == len(minimal)
    assert list(got) == sorted(got, key=lambda m: (bin(m).count("1"), m))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(["deny", "approve", "refer"]), min_size=8, max_size=8),
    st.integers(0, 7),
)
def test_cell_relations_flag_exactly_the_changed_cell(verdicts: list[str], cell: int) -> None:
    cube = Cube(GNA, tuple(verdicts))
    assert identical_cells(cube, cube) == (True,) * 8
    assert inverse_cells(cube, inverse_cube(cube)) == (True,) * 8
    changed = list(verdicts)
    changed[cell] = "hold"
    expected = tuple(m != cell for m in range(8))
    assert identical_cells(cube, Cube(GNA, tuple(changed))) == expected
    flipped = list(inverse_cube(cube).verdicts)
    flipped[cell] = "hold"
    assert inverse_cells(cube, Cube(GNA, tuple(flipped))) == expected


class Recording(ToyStratum):
    """The toy stratum, recording the context and the RNG each call receives."""

    def __init__(self) -> None:
        super().__init__()
        self.contexts: list[Any] = []
        self.rngs: list[Any] = []

    def adjudicator(self, context: Any) -> Any:
        self.contexts.append(context)
        return super().adjudicator(context)

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        self.rngs.append(rng)
        return super().add_distractor(transition, rng)

    def quarantine_control(self, transition: Transition, rng: random.Random) -> Transition | None:
        self.rngs.append(rng)
        return super().add_distractor(transition, rng)


def test_builders_pass_the_case_context_and_the_parents_rng() -> None:
    _, t, cube = a_case()
    t = Transition(t.unit_id, t.old, t.new, t.operators, {"unit": t.unit_id, "query": "q"})
    for kind in ("inverse", "distractor", "quarantine"):
        stratum, rng = Recording(), random.Random(0)
        CONTROL_KINDS.get(kind).build(stratum, t, cube, receipt_of(cube), GNA, rng, PARENT)
        assert stratum.contexts and all(c == t.context for c in stratum.contexts), kind
        assert all(r is rng for r in stratum.rngs), kind


def test_registering_a_kind_returns_it() -> None:
    from reasonbench.controls.builtin import _register

    kind = CONTROL_KINDS.get("permutation")
    echo = type(kind)("echo-test", "echo", "echo", kind.build, kind.relation)
    try:
        assert _register(echo) is echo and CONTROL_KINDS.get("echo-test") is echo
    finally:
        CONTROL_KINDS.unregister("echo-test")


def test_inverse_checks_both_endpoints_and_a_predicted_stable_pair() -> None:
    up = Cube(GNA, ("deny", "approve", "deny", "approve", "deny", "approve", "deny", "approve"))
    said = Answer("deny", "approve", (1,))
    # old swapped right, new not: the second endpoint check alone fails
    assert inverse_consistent(said, Answer("refer", "deny", None), up) is False
    assert inverse_consistent(said, Answer("approve", "deny", None), up) is True
    # both predicted stable: nothing to hit, the expected inverse receipt is empty too
    stable = Answer("deny", "deny", ())
    assert inverse_consistent(stable, stable, up) is True
    assert inverse_consistent(stable, Answer("deny", "deny", (1,)), up) is False


def test_cell_relations_refuse_cubes_of_different_sizes() -> None:
    three, two = Cube(GNA, ("deny",) * 8), Cube(("G", "N"), ("deny",) * 4)
    with pytest.raises(ValueError):
        identical_cells(three, two)
