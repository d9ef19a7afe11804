"""What a Judge Card says, as a list of blocks (headings, paragraphs, tables, figures).

Both renderings (Markdown, HTML) walk the same blocks, so they never disagree. Rates are shown
in percent with their 95% clustered-bootstrap interval (resampling clauses, the independent
units); "—" marks a value that is undefined (e.g. R_dir of a judge that never flips).
"""

from __future__ import annotations

from typing import Any

from reasonbench.analysis.metrics import (
    DRIFT_RATE,
    ENDPOINT_ACCURACY,
    INERTIA_RATE,
    MISATTRIBUTION_RATE,
    PARSE_FAILURE_RATE,
    RECEIPT_ACCURACY,
    REVISED_VERDICT_ACCURACY,
)
from reasonbench.judge_card.blocks import (
    UNDEFINED,
    Block,
    Figure,
    Heading,
    Para,
    est,
    rate,
    show,
)
from reasonbench.judge_card.plots import FIGURES
from reasonbench.judge_card.record import SECTIONS, JudgeCard
from reasonbench.reports.render import Table

__all__ = ["blocks"]

HANDLINGS = ("excluded", "imputed")
ACCURACY = (REVISED_VERDICT_ACCURACY, RECEIPT_ACCURACY, ENDPOINT_ACCURACY, PARSE_FAILURE_RATE,
            DRIFT_RATE, INERTIA_RATE, MISATTRIBUTION_RATE)  # fmt: skip


def value(card: JudgeCard, metric: str) -> float | None:
    """A metric on the base prompts; ``None`` when it does not apply to the judge's target."""
    entry = card.accuracy["items"]["metrics"].get(metric)
    return None if entry is None else entry["value"]


def _warning(card: JudgeCard) -> list[Block]:
    failures = value(card, PARSE_FAILURE_RATE)
    if not failures:
        return []
    n = card.accuracy["items"]["n"]
    every = " Every answer failed: the judge scores 0% on every metric." if failures == 1 else ""
    return [
        Para(
            f"Warning: {rate(failures)} of the {n} base answers failed to parse; a parse failure "
            f"counts as a wrong answer on every metric.{every}"
        )
    ]


def _summary(card: JudgeCard) -> list[Block]:
    inv, d = card.invariance, card.data
    return [
        Heading(f"Judge Card: {card.judge['name']}", 1),
        *_warning(card),
        Para(
            f"PIS {est(inv['excluded'].pis, False)} with parse failures excluded, "
            f"{est(inv['imputed'].pis, False)} with parse failures imputed as flips. "
            f"Revised-verdict accuracy {rate(value(card, REVISED_VERDICT_ACCURACY))}, receipt "
            f"accuracy {rate(value(card, RECEIPT_ACCURACY))}, on {d['items']} {d['stratum']} items "
            f"from {d['units']} clauses ({show(d['splits'])}). Data manifest sha256 "
            f"{d['manifest_sha256']}."
        ),
    ]


# How each Δflip rule (invariance.report.DELTA_FLIP_RULES) is labelled on the card.
RULE_LABELS = {"seed": "PIS (seed: Δflip as is)", "clipped": "PIS (Δflip clipped at 0)"}


def _pis(card: JudgeCard) -> list[Block]:
    c = card.pis_config
    rules = [c.delta_flip_rule, *(r for r in RULE_LABELS if r != c.delta_flip_rule)]
    rows = []
    for h in HANDLINGS:
        r = card.invariance[h]
        rows.append([h, *(est(r.pis_by_rule[rule], False) for rule in rules),
                     est(r.delta_flip["pooled"]), est(r.r_dir), est(r.u_rate)])  # fmt: skip
    return [
        Heading(SECTIONS[0]),
        Para(
            f"PIS = max(0, 1 − (w1·Δflip + w2·(1 − R_dir) + w3·U_rate)·S) with w1 = {c.w1}, "
            f"w2 = {c.w2}, w3 = {c.w3}, S = {c.scale} (configuration). The headline PIS is "
            f"{RULE_LABELS[c.delta_flip_rule]}; the table also shows the other rule. Seed: Δflip "
            "enters as measured, as the paper writes the formula, so a negative Δflip (rewrites "
            "flip less than repeated runs do) lowers the penalty and PIS can exceed 1; clipped: "
            "max(0, Δflip), a negative excess is noise, not a bonus. They differ only for a "
            "sampling judge whose jitter exceeds its flip rate. Undefined terms: R_dir without "
            f"any flip counts as {c.r_dir_without_flips} (at 0 it costs w2·S = {c.w2 * c.scale:g} "
            f"of the penalty, so such a judge scores PIS 0), U_rate without flips as "
            f"{c.u_rate_without_flips}."
        ),
        Table(
            "pis",
            "Policy Invariance Score",
            [
                "parse failures",
                *(RULE_LABELS[r] for r in rules),
                "Δflip (pooled)",
                "R_dir",
                "U_rate",
            ],  # fmt: skip
            rows,
        ),
        Figure("pis_components", FIGURES["pis_components"]),
    ]


def _principle1(card: JudgeCard) -> list[Block]:
    ex, im = card.invariance["excluded"], card.invariance["imputed"]
    rows: list[list[Any]] = [
        [
            key,
            ex.flip[key].n,
            est(ex.flip[key]),
            est(ex.jitter),
            est(ex.delta_flip[key]),
            est(im.delta_flip[key]),
        ]
        for key in ex.flip
    ]
    variants = [[v, rate(ex.by_variant[v]), rate(im.by_variant.get(v))] for v in ex.by_variant]
    dropped = card.data["unchanged_rewrites"]
    return [
        Heading(SECTIONS[1]),
        Para(
            "Flip rate: share of (item, certified rewrite) comparisons whose revised verdict "
            "differs from the verdict on the benchmark wording. T1 syntax (voice, clause order), "
            "T2 lexicon (deontic synonyms within one family), T4 exception placement. Every "
            "rewrite was certified by execution: its text parses back to the same rule and scope, "
            "and the parsed states reproduce every cell of the item's judgment cube. "
            f"Δflip = flip rate − jitter. Rewrites identical to the original text (not compared): {show(dropped)}."
        ),
        Table(
            "delta_flip",
            "Excess flip rate per transform family",
            ["family", "comparisons", "flip rate", "jitter", "Δflip (excluded)", "Δflip (imputed)"],
            rows,
        ),
        Figure("delta_flip", FIGURES["delta_flip"]),
        Table(
            "variants",
            "Flip rate per rewrite variant",
            ["variant", "excluded", "imputed"],
            variants,
        ),
    ]


def _principle2(card: JudgeCard) -> list[Block]:
    ex, im = card.invariance["excluded"], card.invariance["imputed"]
    rows: list[list[Any]] = [
        ["R_dir (deny→approve flips / all flips)", est(ex.r_dir), est(im.r_dir)],
        ["verdict changes counted", ex.r_dir.n, im.r_dir.n],
        ["deny→approve share of all pairs", est(ex.flip_share), est(im.flip_share)],
        [
            "expected deny→approve share (execution)",
            rate(ex.expected_share),
            rate(im.expected_share),
        ],
        [
            "sensitivity (judge flips where execution flips)",
            rate(ex.sensitivity),
            rate(im.sensitivity),
        ],
    ]
    d = card.data
    return [
        Heading(SECTIONS[2]),
        Para(
            f"{d['threshold_pairs']} threshold-shift pairs: one numeric threshold of the rule "
            "relaxed (the same predicate in the old and the revised rule), the strict rule in strict "
            "wording (“must”, “by any margin”) against the relaxed rule in lax wording (“should”). "
            "Relaxing can only move a verdict from deny to approve; by execution "
            f"{d['expected_to_lax']} of the pairs must move, the others must not."
        ),
        Table("threshold", "Directional sensitivity", ["measure", "excluded", "imputed"], rows),
        Figure("threshold_shift", FIGURES["threshold_shift"]),
    ]


def _principle3(card: JudgeCard) -> list[Block]:
    ex, im = card.invariance["excluded"], card.invariance["imputed"]
    d, margin = card.data, card.settings["margin"]
    rows: list[list[Any]] = [
        ["clear items", f"{d['clear_items']} of {d['items']}", ""],
        ["flips on clear items", f"{ex.flips_clear:g}", f"{im.flips_clear:g}"],
        ["flips in total", f"{ex.flips_total:g}", f"{im.flips_total:g}"],
        ["U_rate (unreasonable share of flips)", est(ex.u_rate), est(im.u_rate)],
    ]
    return [
        Heading(SECTIONS[3]),
        Para(
            "Clear and ambiguous are defined by execution: an item is ambiguous when moving one "
            f"numeric fact of the old or revised case by up to {margin} grid step(s) changes that "
            "verdict (the case sits at a threshold or band edge), or when its receipt has more than "
            "one minimal set; otherwise it is clear. A flip on a clear item under a certified "
            "rewrite is unreasonable. Flips are counted as run-pair shares."
        ),
        Table("unreasonable", "Unreasonable flips", ["measure", "excluded", "imputed"], rows),
    ]


def _accuracy(card: JudgeCard) -> list[Block]:
    n = card.accuracy["items"]["n"]
    rows = [[m.replace("_", " "), rate(value(card, m))] for m in ACCURACY]
    pooled = (card.accuracy["consistency"] or {}).get("pooled", {})
    consistency = [
        [kind, c["pairs"], c["checkable"], rate(c["consistency"]), rate(c["error_lower_bound"])]
        for kind, c in pooled.items()
    ]
    blocks: list[Block] = [
        Heading(SECTIONS[4]),
        Para(
            f"Scored like any prediction records (reasonbench analyze) on the {n} base prompts; "
            f"{UNDEFINED} marks a metric that is undefined or does not apply to the judge's target."
        ),
        Table("accuracy", "Accuracy on the base prompts", ["metric", "value"], rows),
    ]
    if consistency:
        header = ["control", "pairs", "checkable", "consistency", "error lower bound"]
        blocks.append(
            Table("consistency", "Paired consistency on the locked controls", header, consistency)
        )
    else:
        blocks.append(Para("Paired consistency: no locked controls for these items."))
    return blocks


def _runs(card: JudgeCard) -> list[Block]:
    r, ex = card.runs, card.invariance["excluded"]
    verified = r["greedy_jitter_verified"]
    jitter = (
        f"sampling judge: jitter {est(ex.jitter)} from {r['answers_per_base_prompt']} runs per base prompt"
        if r["sampling"]
        else f"greedy judge: every base prompt answered twice, identical answers: {'yes' if verified else 'NO'}"
    )
    rows = [[kind.replace("_", " "), rate(v)] for kind, v in r["parse_failure_rate"].items()]
    return [
        Heading(SECTIONS[5]),
        Para(
            f"{r['distinct_prompts']} distinct prompts, {r['answers_per_prompt']} answer(s) each; {jitter}. "
            "Parse failures are handled two ways throughout: excluded (run pairs with an unparsed "
            "answer are dropped) and imputed (counted as a flip, never as a directional one)."
        ),
        Table("parse_failures", "Parse-failure rate per prompt kind", ["prompts", "rate"], rows),
    ]


def _data(card: JudgeCard) -> list[Block]:
    d, j, s = card.data, card.judge, card.settings
    rows: list[list[Any]] = [[k.replace("_", " "), show(v)] for k, v in j.items() if k != "name"]
    rows += [[k.replace("_", " "), show(v)] for k, v in d.items()]
    rows += [[f"setting: {k}", show(v)] for k, v in s.items()]
    return [
        Heading(SECTIONS[6]),
        Table("data", "Judge, data and settings", ["field", "value"], rows),
    ]


def blocks(card: JudgeCard) -> list[Block]:
    return [
        *_summary(card),
        *_pis(card),
        *_principle1(card),
        *_principle2(card),
        *_principle3(card),
        *_accuracy(card),
        *_runs(card),
        *_data(card),
    ]
