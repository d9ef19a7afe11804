"""Consistency repairs (issue 31): after − before of one control kind's consistency, the locked
units resampled once for both arms, seeds paired only when both arms have the same seeds."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.analysis.consistency import PairOutcome
from reasonbench.analysis.inference import RepairSpec, SplitDesign, design, repair
from reasonbench.analysis.methods import SettingsError
from reasonbench.core import Answer
from tests.analysis.helpers import gold, scored

UNITS = 6
SPEC = RepairSpec("fix", "after", "before", "permutation")


def pairs(consistent: list[list[bool]], kind: str = "permutation") -> dict[int, list[PairOutcome]]:
    """seed -> one pair per example (unit u{i % 6}; odd examples logical)."""
    return {
        s: [
            PairOutcome(kind, "logical" if i % 2 else "organizational", f"u{i % UNITS}", True, ok)
            for i, ok in enumerate(row)
        ]
        for s, row in enumerate(consistent)
    }


@cache
def locked(replicates: int = 300) -> SplitDesign:
    """The locked test's design: 24 parents in units u0..u5 (what the pairs' units index)."""
    parents = [gold(f"e{i:03d}", unit=f"u{i % UNITS}") for i in range(24)]
    rows = {0: [scored(g, Answer.of_receipt(g.receipt)) for g in parents]}
    d = design("test_locked", {"m": rows}, replicates, 0)
    assert d is not None
    return d


def test_known_difference_pooled_and_per_stratum() -> None:
    n = 24
    before = pairs([[i % 4 == 0 for i in range(n)]] * 5)  # 6 of 24 consistent, every seed
    after = pairs([[i % 4 != 3 for i in range(n)]] * 3)  # 18 of 24
    fix = repair(SPEC, locked(), {"after": after, "before": before})
    assert (
        fix.status == "ok" and fix.seeds_after == [0, 1, 2] and fix.seeds_before == [0, 1, 2, 3, 4]
    )
    assert not fix.seeds_paired  # 3 seeds against 5: each arm over its own seeds
    assert fix.pooled is not None and fix.pooled.estimate == pytest.approx(0.75 - 0.25)
    assert fix.pooled.low <= fix.pooled.estimate <= fix.pooled.high
    # organizational: even examples, i % 4 in {0, 2}: before 1/2, after 1; logical: 0 and 1/2
    assert fix.strata["organizational"].estimate == pytest.approx(0.5)
    assert fix.strata["logical"].estimate == pytest.approx(0.5)


def test_identical_arms_with_the_same_seeds_are_paired_and_differ_by_exactly_zero() -> None:
    """Paired: the same unit and seed draws for both arms, so every replicate's difference of two
    identical arms is 0 — the CI is [0, 0], however noisy the arms are."""
    noisy = pairs([[bool((i * 7 + s) % 3) for i in range(24)] for s in range(3)])
    fix = repair(SPEC, locked(), {"after": noisy, "before": noisy})
    assert fix.seeds_paired
    assert fix.pooled is not None and (fix.pooled.estimate, fix.pooled.low, fix.pooled.high) == (
        0.0,
        0.0,
        0.0,
    )


def test_unpaired_seeds_resample_each_arm_over_its_own_seeds() -> None:
    """Same outcomes but different seed sets: the arms resample their seeds independently, so the
    difference of two arms with seed-to-seed variation is no longer exactly 0 in every replicate."""
    rows = [[bool((i * 7 + s) % 3) for i in range(24)] for s in range(3)]
    after = pairs(rows)
    before = {s + 10: outcomes for s, outcomes in pairs(rows).items()}  # seeds 10, 11, 12
    fix = repair(SPEC, locked(), {"after": after, "before": before})
    assert not fix.seeds_paired and fix.pooled is not None
    assert fix.pooled.estimate == 0.0 and fix.pooled.low < 0.0 < fix.pooled.high


def test_not_run_without_one_arm_and_other_kinds_ignored() -> None:
    before = pairs([[True] * 24])
    assert repair(SPEC, locked(), {"before": before}).status == "not run"
    assert repair(SPEC, None, {"before": before, "after": before}).status == "not run"
    mixed = {0: [*before[0], *pairs([[False] * 24], "distractor")[0]]}
    fix = repair(SPEC, locked(), {"after": mixed, "before": mixed})
    assert fix.pooled is not None and fix.pooled.estimate == 0.0  # distractor pairs not counted
    only_distractor = pairs([[False] * 24], "distractor")
    fix = repair(SPEC, locked(), {"after": only_distractor, "before": only_distractor})
    assert fix.status == "ok" and fix.pooled is None  # nothing checkable of the kind


SEEDS = st.lists(st.integers(0, 2**24 - 1), min_size=1, max_size=4)  # a seed's 24 pairs as bits


def bits(masks: list[int]) -> list[list[bool]]:
    return [[bool(m >> i & 1) for i in range(24)] for m in masks]


@settings(max_examples=20, deadline=None)
@given(SEEDS, SEEDS)
def test_estimate_is_the_difference_of_seed_means(after: list[int], before: list[int]) -> None:
    """The estimate is exactly the difference of the arms' mean-over-seeds consistency (what the
    tables show for each arm), and lies inside its CI."""
    a, b = bits(after), bits(before)
    fix = repair(SPEC, locked(100), {"after": pairs(a), "before": pairs(b)})
    expected = float(np.mean([np.mean(r) for r in a]) - np.mean([np.mean(r) for r in b]))
    assert fix.pooled is not None and fix.pooled.estimate == pytest.approx(expected)
    assert fix.pooled.low - 1e-12 <= fix.pooled.estimate <= fix.pooled.high + 1e-12


def test_a_bad_repair_entry_is_refused_by_name() -> None:
    with pytest.raises(
        SettingsError, match=r"repair r: kind: unknown control 'permutaton'.*'permutation'"
    ):
        RepairSpec.of({"name": "r", "after": "a", "before": "b", "kind": "permutaton"})
    with pytest.raises(SettingsError, match=r"missing \['before'\]"):
        RepairSpec.of({"name": "r", "after": "a", "kind": "permutation"})
    with pytest.raises(SettingsError, match=r"unknown key\(s\) \['by'\]"):
        RepairSpec.of({"name": "r", "after": "a", "before": "b", "kind": "permutation", "by": []})
