"""The Judge Card reports PIS under both Δflip rules (issue 31): the seed's formula (Δflip as
measured) and the named deviation (Δflip clipped at 0), the configured one as the headline."""

from __future__ import annotations

import pytest

from reasonbench.invariance.metrics import invariance_report
from reasonbench.invariance.report import Comparison, PairRuns, PisConfig, Repeat
from reasonbench.judge_card.content import RULE_LABELS, _pis
from reasonbench.judge_card.plots import pis_components
from reasonbench.judge_card.record import JudgeCard
from reasonbench.reports.render import Table

A, D = "approve", "deny"


def card(rule: str) -> JudgeCard:
    """A sampling judge whose repeated runs differ more than its rewrites flip: Δflip < 0."""
    repeats = [Repeat("u1", (A, D, A, D)), Repeat("u2", (D, A, D, A))]
    comparisons = [
        Comparison("u1", "T1", "v", True, (A, A), (A, A)),
        Comparison("u2", "T4", "v", True, (D, D), (D, A)),
    ]
    pairs = [PairRuns("u1", "to_lax", (D,), (A,))]
    config = PisConfig(delta_flip_rule=rule)
    reports = {
        h: invariance_report(comparisons, repeats, pairs, config, h, replicates=100)
        for h in ("excluded", "imputed")
    }
    return JudgeCard({"name": "coin"}, {}, {}, reports, {}, config, {})


@pytest.mark.parametrize("rule", ["seed", "clipped"])
def test_the_pis_table_shows_every_rule_headline_first(rule: str) -> None:
    c = card(rule)
    (table,) = [b for b in _pis(c) if isinstance(b, Table)]
    other = "clipped" if rule == "seed" else "seed"
    assert list(table.header[1:3]) == [RULE_LABELS[rule], RULE_LABELS[other]]
    excluded = c.invariance["excluded"]
    assert excluded.delta_flip["pooled"].value is not None
    assert excluded.delta_flip["pooled"].value < 0
    seed, clipped = (excluded.pis_by_rule[r].value for r in ("seed", "clipped"))
    assert seed is not None and clipped is not None and seed > clipped  # a negative Δflip helps
    assert c.pis == (seed if rule == "seed" else clipped)
    row = table.rows[0]
    assert str(row[1]).startswith(f"{excluded.pis_by_rule[rule].value:.2f}")
    (para,) = [b for b in _pis(c) if hasattr(b, "text") and "PIS =" in b.text]
    assert f"The headline PIS is {RULE_LABELS[rule]}" in para.text
    assert "costs w2·S = 1.5 of the penalty" in para.text  # the R_dir fallback, stated
    assert pis_components(c).startswith(b"\x89PNG")  # a negative part is drawn leftwards
