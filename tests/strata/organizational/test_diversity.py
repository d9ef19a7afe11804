"""sample_transition yields a rich mix of outcomes (the check the benchmark's quotas rely on).

For a handful of clauses, ~300 draws over random source subsets must give stable and changed
cases, receipt-ambiguous cases, and minimum receipt sizes 1 and 2 for every clause; size 3 is
rarer (it needs all three revisions to be about the same case) but must occur for most.
"""

from __future__ import annotations

import random
from collections import Counter

from reasonbench.core import execute_cube, receipt_of
from reasonbench.strata.organizational import OrganizationalStratum

from .conftest import SUBSETS

CLAUSES = (
    "org-expenses-meals",
    "org-travel-flight-class",
    "org-data-access-production",
    "org-leave-annual",
    "org-contract-sales",
    "org-refund-standard",
)
DRAWS = 300


def outcome_mix(stratum: OrganizationalStratum, unit_id: str) -> Counter[str]:
    judge = stratum.adjudicator({})
    rng = random.Random(f"diversity:{unit_id}")
    mix: Counter[str] = Counter()
    for _ in range(DRAWS):
        transition = stratum.sample_transition(stratum.clause(unit_id), rng, rng.choice(SUBSETS))
        if transition is None:
            mix["none"] += 1
            continue
        receipt = receipt_of(execute_cube(judge, transition.old, transition.new))
        if receipt.stable:
            mix["stable"] += 1
            continue
        mix["changed"] += 1
        mix[f"min{receipt.min_size}"] += 1
        mix["ambiguous"] += receipt.ambiguous
    return mix


def test_outcome_mix(stratum: OrganizationalStratum) -> None:
    mixes = {unit_id: outcome_mix(stratum, unit_id) for unit_id in CLAUSES}
    for unit_id, mix in mixes.items():
        assert mix["none"] <= 3, (unit_id, mix)
        assert mix["stable"] >= 60 and mix["changed"] >= 100, (unit_id, mix)
        assert mix["ambiguous"] >= 5, (unit_id, mix)
        assert mix["min1"] >= 50 and mix["min2"] >= 5, (unit_id, mix)
    with_size_3 = [u for u, mix in mixes.items() if mix["min3"] > 0]
    assert len(with_size_3) >= 5, mixes
