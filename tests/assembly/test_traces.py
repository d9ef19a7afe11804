"""A candidate's traces are taken when its draw is accepted (its states are still in the
adjudicator's caches then); records built from them equal records that trace afresh, and the
controls that keep or swap the parent's states reuse them."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.assembly.materialize import _parent_traces
from reasonbench.assembly.records import make_record
from reasonbench.assembly.sampling import SUBSETS, Candidate, DrawRules, draw_one
from reasonbench.controls import CONTROL_KINDS
from reasonbench.strata.agentic import AgenticStratum
from reasonbench.strata.base import Stratum
from reasonbench.strata.logical.stratum import LogicalStratum
from reasonbench.strata.organizational.stratum import OrganizationalStratum

STRATA: dict[str, Stratum] = {
    "logical": LogicalStratum(n_units=8),
    "agentic": AgenticStratum(n_units=6),
    "organizational": OrganizationalStratum(),
}
UNITS: dict[str, list[Any]] = {name: list(s.units(0)) for name, s in STRATA.items()}
RULES = {
    name: DrawRules(subsets=SUBSETS, operators=None, families=s.template_families[:1])
    for name, s in STRATA.items()
}
ORDER = ("G", "N", "A")


def _candidate(name: str, index: int, draw: int) -> Candidate | None:
    units = UNITS[name]
    unit = units[index % len(units)]
    return draw_one(STRATA[name], unit, RULES[name], random.Random(f"traces:{draw}"), draw)


def _record(stratum: Stratum, cand: Candidate, traces: Any) -> dict[str, Any]:
    return make_record(
        stratum,
        cand.transition,
        cand.cube,
        cand.receipt,
        record_id="r",
        split="train",
        family=cand.family,
        order=ORDER,
        depth=cand.depth,
        traces=traces,
    )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(STRATA)), st.integers(0, 63), st.integers(0, 2**20))
def test_pinned_traces_are_the_strata_traces(name: str, index: int, draw: int) -> None:
    cand = _candidate(name, index, draw)
    if cand is None:
        return
    stratum, t = STRATA[name], cand.transition
    assert cand.traces == (stratum.trace(t.old, t.context), stratum.trace(t.new, t.context))
    assert _record(stratum, cand, cand.traces) == _record(stratum, cand, None)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(STRATA)), st.integers(0, 63), st.integers(0, 2**20))
def test_controls_reuse_the_parents_traces_only_for_its_states(
    name: str, index: int, draw: int
) -> None:
    cand = _candidate(name, index, draw)
    if cand is None:
        return
    stratum = STRATA[name]
    old_trace, new_trace = cand.traces
    for kind_name, expected in (
        ("permutation", (old_trace, new_trace)),
        ("inverse", (new_trace, old_trace)),
    ):
        kind = CONTROL_KINDS.get(kind_name)
        built = kind.build(
            stratum, cand.transition, cand.cube, cand.receipt, ORDER, random.Random(0), "p"
        )
        assert _parent_traces(cand, built.transition) == expected
        t = built.transition
        assert expected == (stratum.trace(t.old, t.context), stratum.trace(t.new, t.context))
    # a control with states of its own traces them itself
    own = stratum.add_distractor(cand.transition, random.Random(draw))
    if own is not None and (own.old, own.new) != (cand.transition.old, cand.transition.new):
        assert _parent_traces(cand, own) is None
