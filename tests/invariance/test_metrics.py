"""Policy-invariance metrics on inputs with known answers."""

from __future__ import annotations

import json

import pytest

from reasonbench.invariance.metrics import invariance_report, pis
from reasonbench.invariance.report import (
    Comparison,
    InvarianceReport,
    PairRuns,
    PisConfig,
    PisConfigError,
    Repeat,
)

A, D, R = "approve", "deny", "refer"
COMPARISONS = [
    Comparison("u1", "T1", "T1-voice", True, (A,), (A,)),
    Comparison("u1", "T1", "T1-voice", True, (A,), (D,)),  # flip on a clear item
    Comparison("u1", "T2", "T2-lexicon-1", False, (D,), (A,)),  # flip on an ambiguous item
    Comparison("u2", "T4", "T4-leading", True, (D,), (D,)),
    Comparison("u2", "T4", "T4-leading", False, (R,), (R,)),
    Comparison("u2", "T2", "T2-lexicon-1", True, (A,), (None,)),  # parse failure
]
REPEATS = [Repeat("u1", (A, A)), Repeat("u2", (D, D))]
PAIRS = [
    PairRuns("u1", "to_lax", (D,), (A,)),  # the expected direction
    PairRuns("u1", "none", (A,), (D,)),  # the wrong direction
    PairRuns("u2", "none", (D,), (D,)),
    PairRuns("u2", "to_lax", (D,), (None,)),  # parse failure
]
UNIT_WEIGHTS = PisConfig(scale=1.0)


def report(handling: str, config: PisConfig = UNIT_WEIGHTS) -> InvarianceReport:
    return invariance_report(COMPARISONS, REPEATS, PAIRS, config, handling, replicates=300)


def test_known_answers_with_parse_failures_excluded() -> None:
    r = report("excluded")
    assert {k: e.value for k, e in r.flip.items()} == {
        "T1": 0.5,
        "T2": 1.0,
        "T4": 0.0,
        "pooled": 0.4,
    }
    assert r.jitter.value == 0.0 and r.delta_flip["pooled"].value == 0.4
    assert r.u_rate.value == 0.5 and (r.flips_clear, r.flips_total) == (1.0, 2.0)
    assert r.r_dir.value == 0.5 and r.r_dir.n == 2
    assert r.flip_share.value == pytest.approx(1 / 3)
    assert r.expected_share == 0.5 and r.sensitivity == 0.5
    assert r.pis.value == pytest.approx(1 - (0.4 * 0.4 + 0.3 * 0.5 + 0.3 * 0.5))
    assert r.by_variant == {"T1-voice": 0.5, "T2-lexicon-1": 1.0, "T4-leading": 0.0}


def test_known_answers_with_parse_failures_imputed_as_flips() -> None:
    r = report("imputed")
    assert r.flip["T2"].value == 1.0 and r.flip["pooled"].value == 0.5
    assert r.u_rate.value == pytest.approx(2 / 3)
    assert r.r_dir.value == pytest.approx(1 / 3)  # an unparsed side is a flip, never directional
    assert r.flip_share.value == 0.25
    assert r.pis.value == pytest.approx(1 - (0.4 * 0.5 + 0.3 * (2 / 3) + 0.3 * (2 / 3)))


def test_jitter_of_a_sampling_judge_is_subtracted() -> None:
    repeats = [Repeat("u1", (A, A, D)), Repeat("u2", (D, D, D))]
    comparisons = [
        Comparison("u1", "T1", "v", True, (A, A, D), (D, D, D)),  # 6 of 9 run pairs differ
        Comparison("u2", "T1", "v", True, (D, D, D), (D, D, A)),  # 3 of 9
    ]
    r = invariance_report(comparisons, repeats, [], UNIT_WEIGHTS, "excluded", replicates=300)
    assert r.jitter.value == pytest.approx(1 / 3)  # (2/3 + 0) / 2
    assert r.flip["pooled"].value == pytest.approx(0.5)
    assert r.delta_flip["pooled"].value == pytest.approx(0.5 - 1 / 3)


def test_unparsed_answers_never_count_as_jitter() -> None:
    repeats = [Repeat("u1", (None, None)), Repeat("u2", (A, None))]
    comparisons = [Comparison("u1", "T1", "v", True, (None, None), (None,))]
    r = invariance_report(comparisons, repeats, [], UNIT_WEIGHTS, "imputed", replicates=100)
    assert r.jitter.value is None and r.flip["pooled"].value == 1.0
    assert r.delta_flip["pooled"].value == 1.0  # charged to the flip rate, not cancelled


def test_pis_matches_the_papers_figures() -> None:
    # GPT-5.4-mini in the paper: dflip 1.1%, R_dir ~ 1.00, ~18.5% of flips on clear items -> 0.70
    assert pis(0.011, 1.0, 0.185, PisConfig()) == pytest.approx(0.70, abs=0.005)
    assert pis(0.5, 0.0, 1.0, PisConfig()) == 0.0  # clipped at 0


def test_a_negative_delta_flip_follows_the_seed_unless_clipped() -> None:
    # seed 001: PIS = max(0, 1 - (w1*dflip + ...)*S) with no clip on dflip, so a negative dflip
    # lowers the penalty (1 + 0.4*0.2*5 = 1.4); the named deviation "clipped" reads max(0, dflip)
    assert pis(-0.2, 1.0, 0.0, PisConfig()) == pytest.approx(1.4)
    assert pis(-0.2, 1.0, 0.0, PisConfig(), "clipped") == 1.0  # a negative dflip is no bonus
    clipped = PisConfig(delta_flip_rule="clipped")
    assert pis(-0.2, 1.0, 0.0, clipped) == 1.0 and pis(-0.2, 1.0, 0.0, clipped, "seed") > 1.0
    # positive dflip: the rules agree
    assert pis(0.011, 1.0, 0.185, PisConfig()) == pis(0.011, 1.0, 0.185, clipped)
    with pytest.raises(PisConfigError, match="delta_flip_rule"):
        PisConfig(delta_flip_rule="zero")


def test_the_report_gives_pis_under_every_rule() -> None:
    # a sampling judge whose repeated runs differ more often than its rewrites flip: dflip < 0
    repeats = [Repeat("u1", (A, D, A, D)), Repeat("u2", (D, A, D, A))]  # jitter 4/6 per unit
    comparisons = [
        Comparison("u1", "T1", "v", True, (A, A), (A, D)),  # 2 of 4 run pairs differ
        Comparison("u2", "T1", "v", True, (D, D), (D, D)),  # 0 of 4
    ]
    pairs = [PairRuns("u1", "to_lax", (D,), (A,))]  # R_dir 1
    for rule in ("seed", "clipped"):
        config = PisConfig(delta_flip_rule=rule)
        r = invariance_report(comparisons, repeats, pairs, config, "excluded", replicates=200)
        delta = r.delta_flip["pooled"].value
        assert delta == pytest.approx(0.25 - 2 / 3)  # flip rate (0.5 + 0) / 2 - jitter
        u = r.u_rate.value
        assert u == 1.0
        seed = 1 - (0.4 * delta + 0.3 * u) * 5
        assert r.pis_by_rule["seed"].value == pytest.approx(seed)
        assert r.pis_by_rule["clipped"].value == pytest.approx(max(0.0, 1 - 0.3 * u * 5))
        assert r.pis == r.pis_by_rule[rule]  # the headline is the configured rule
        for e in r.pis_by_rule.values():  # every rule has its clustered interval
            assert e.low is not None and e.high is not None and e.low <= e.value <= e.high
        assert InvarianceReport.from_json(json.loads(json.dumps(r.to_json()))) == r


def test_undefined_terms_take_the_configured_fallbacks() -> None:
    still = [Comparison("u1", "T1", "v", True, (A,), (A,))]
    never_flips = [PairRuns("u1", "to_lax", (D,), (D,))]
    r = invariance_report(still, [], never_flips, PisConfig(), "excluded", replicates=100)
    assert r.r_dir.value is None and r.u_rate.value is None
    assert r.pis.value == 0.0  # no sign of reading the policy: 1 - 0.3 * 1 * 5 < 0
    lenient = PisConfig(r_dir_without_flips=1.0)
    assert invariance_report(still, [], never_flips, lenient, "excluded").pis.value == 1.0
    unparsed = [Comparison("u1", "T1", "v", True, (None,), (A,))]
    assert invariance_report(unparsed, [], [], PisConfig(), "excluded").pis.value is None


def test_intervals_are_clustered_over_units_and_seeded() -> None:
    r = report("excluded")
    for e in (r.flip["pooled"], r.u_rate, r.r_dir, r.pis):
        assert e.low is not None and e.high is not None and e.value is not None
        assert e.low <= e.value + 1e-12 and e.value <= e.high + 1e-12
    # two units: a resample holds u1 twice, u2 twice, or one of each, so the pooled flip rate
    # can only be 2/3 (u1, u1), 0 (u2, u2) or 0.4
    assert r.flip["pooled"].low >= 0.0 and r.flip["pooled"].high <= 2 / 3 + 1e-12
    assert report("excluded") == r  # same seed, same intervals


def test_report_round_trips_through_json() -> None:
    for handling in ("excluded", "imputed"):
        r = report(handling)
        assert InvarianceReport.from_json(json.loads(json.dumps(r.to_json()))) == r
    with pytest.raises(ValueError, match="handling"):
        invariance_report([], [], [], PisConfig(), "dropped")
