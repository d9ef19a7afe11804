"""The composer's own checks and the ``aim`` hint.

``pivots.cells`` must give exactly the adjudicator's cube (the composer trusts it to accept a
draw), its goals must agree with the core's receipts, and ``aim="ambiguous"`` must stay a hint:
it never breaks the operator/source contract and it raises the ambiguous share.
"""

from __future__ import annotations

import pickle
import random

import pytest

from reasonbench.core import EvaluatorState, changed_sources, execute_cube, receipt_of
from reasonbench.strata.base import Transition
from reasonbench.strata.organizational import OPERATORS, OrganizationalStratum
from reasonbench.strata.organizational.pivots import (
    ambiguous,
    cells,
    joint,
    possibly_ambiguous,
)

from .conftest import SUBSETS

MULTI = [s for s in SUBSETS if len(s) > 1]
GNA = ("G", "N", "A")


def mask(sources: tuple[str, ...]) -> int:
    return sum(1 << GNA.index(s) for s in sources)


def check_contract(
    stratum: OrganizationalStratum,
    transition: Transition,
    sources: tuple[str, ...],
    allowed: list[str] | None,
) -> None:
    """What every transition promises, whatever the hints: exactly ``sources`` change, one
    allowed operator per source in G, N, A order, no-op sources inert in the cube."""
    assert changed_sources(transition.old, transition.new) == mask(sources)
    assert [OPERATORS[n].source for n in transition.operators] == [s for s in GNA if s in sources]
    assert allowed is None or set(transition.operators) <= set(allowed)
    cube = execute_cube(stratum.adjudicator({}), transition.old, transition.new)
    for name in transition.operators:
        if OPERATORS[name].noop:
            bit = 1 << GNA.index(OPERATORS[name].source)
            assert all(cube[m] == cube[m | bit] for m in range(8))


def test_cells_are_the_adjudicators_cube(stratum: OrganizationalStratum) -> None:
    judge = stratum.adjudicator({})
    for clause in stratum.units(0)[::3]:
        rng = random.Random(f"cells:{clause.unit_id}")
        for _ in range(20):
            t = stratum.sample_transition(clause, rng, rng.choice(SUBSETS))
            assert t is not None
            # Also with components that are equal but not the same objects, and mixed states.
            copy = EvaluatorState(GNA, tuple(t.new.components))
            mixed = EvaluatorState(GNA, (t.old["G"], t.new["N"], t.old["A"]))
            for old, new in ((t.old, t.new), (t.old, copy), (t.old, mixed), (mixed, t.new)):
                assert cells(old, new) == execute_cube(judge, old, new).verdicts


def test_goals_agree_with_receipts(stratum: OrganizationalStratum) -> None:
    judge = stratum.adjudicator({})
    seen = {"ambiguous": 0, "joint": 0}
    for clause in stratum.units(0)[::4]:
        rng = random.Random(f"goals:{clause.unit_id}")
        for sources in MULTI * 4:
            t = stratum.sample_transition(clause, rng, sources)
            assert t is not None
            verdicts = cells(t.old, t.new)
            receipt = receipt_of(execute_cube(judge, t.old, t.new))
            assert ambiguous(verdicts) == receipt.ambiguous
            assert joint(verdicts, mask(sources)) == (receipt.sets == (mask(sources),))
            seen["ambiguous"] += receipt.ambiguous
            seen["joint"] += receipt.sets == (mask(sources),)
    assert min(seen.values()) > 0, seen


def test_aim_keeps_the_contract(stratum: OrganizationalStratum) -> None:
    restricted = ["g_cross_band", "g_within_threshold", "n_add_exception", "a_widen_scope"]
    for clause in stratum.units(0)[::5]:
        rng = random.Random(f"aim-contract:{clause.unit_id}")
        for sources in SUBSETS:
            for allowed in (None, restricted):
                t = stratum.sample_transition(clause, rng, sources, allowed, aim="ambiguous")
                assert t is not None
                check_contract(stratum, t, sources, allowed)
    noop_only = ["g_touch_unreferenced", "g_within_threshold", "n_shift_threshold_within"]
    rng = random.Random("aim-noops")
    for clause in stratum.units(0)[:6]:
        t = stratum.sample_transition(clause, rng, ("G", "N"), noop_only, aim="ambiguous")
        if t is not None:  # (touch_unreferenced does not apply to every clause)
            check_contract(stratum, t, ("G", "N"), noop_only)


def test_aim_is_deterministic_and_other_aims_are_ignored(
    stratum: OrganizationalStratum,
) -> None:
    clause = stratum.units(0)[7]
    for sources in SUBSETS:
        first = stratum.sample_transition(clause, random.Random(5), sources, aim="ambiguous")
        again = stratum.sample_transition(clause, random.Random(5), sources, aim="ambiguous")
        assert first == again
        plain = stratum.sample_transition(clause, random.Random(5), sources)
        for aim in ("changed", "stable"):
            assert stratum.sample_transition(clause, random.Random(5), sources, aim=aim) == plain


def test_which_subsets_can_be_ambiguous() -> None:
    # With the facts fixed, V(N) = V(A) = V(NA) != V() is impossible (see pivots.py).
    assert [s for s in SUBSETS if possibly_ambiguous(s)] == [
        ("G", "N"),
        ("G", "A"),
        ("G", "N", "A"),
    ]


@pytest.mark.parametrize(
    "unit_id", ["org-expenses-meals", "org-leave-annual", "org-data-access-production"]
)
def test_aim_raises_the_ambiguous_share(stratum: OrganizationalStratum, unit_id: str) -> None:
    judge = stratum.adjudicator({})
    clause = stratum.clause(unit_id)
    found = {None: 0, "ambiguous": 0}
    for aim in found:
        rng = random.Random(f"aim-share:{unit_id}")
        for i in range(60):
            sources = (("G", "N"), ("G", "A"), ("G", "N", "A"))[i % 3]
            t = stratum.sample_transition(clause, rng, sources, aim=aim)
            assert t is not None
            found[aim] += receipt_of(execute_cube(judge, t.old, t.new)).ambiguous
    assert found["ambiguous"] >= 30 and found["ambiguous"] >= 3 * found[None], found


def test_transitions_pickle_after_use(stratum: OrganizationalStratum) -> None:
    """Assembly's worker processes send transitions back pickled: the caches the composer
    fills in (a rule's predicates and fields, a clause's sampling plans) must not break that."""
    rng = random.Random("pickle")
    for clause in stratum.units(0)[::9]:
        for sources in SUBSETS:
            t = stratum.sample_transition(clause, rng, sources, aim="ambiguous")
            assert t is not None
            verdicts = cells(t.old, t.new)
            t.old["N"].fields(), t.new["N"].predicates()  # noqa: B018 - fill the caches
            copy = pickle.loads(pickle.dumps(t))
            assert copy == t and cells(copy.old, copy.new) == verdicts
