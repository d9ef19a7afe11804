"""The paper's tables from ``metrics.json``, each with the paper's value beside ours.

Methods that have not been run yet still get their row, marked "not run", so a reader sees what
is missing rather than a silently shorter table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.reports.lookup import NOT_RUN, dig, has, seed_mean
from reasonbench.reports.render import Cell, Table, pct

Metrics = Mapping[str, Any]


def _locked(metrics: Metrics, method: str, key: str) -> float | None:
    return pct(seed_mean(metrics, method, "splits", "test_locked", key))


def dataset_statistics(stats: Mapping[str, Any], paper: Mapping[str, Any]) -> Table:
    rows = [[k, stats.get(k), v] for k, v in paper.items()]
    return Table(
        "dataset_statistics", "Benchmark statistics", ["quantity", "reasonbench", "paper"], rows
    )


def surface_diagnostics(metrics: Metrics, paper: Mapping[str, Any]) -> Table:
    rows: list[list[Cell]] = []
    for method, label in (("majority", "majority"), ("tfidf", "char TF-IDF")):
        p = paper["surface"][method]
        if not has(metrics, method):
            rows.append(
                [label, NOT_RUN, p["revised_verdict_accuracy"], NOT_RUN, p["receipt_accuracy"]]
            )
            continue
        rows.append(
            [
                label,
                _locked(metrics, method, "revised_verdict_accuracy"),
                p["revised_verdict_accuracy"],
                _locked(metrics, method, "receipt_accuracy"),
                p["receipt_accuracy"],
            ]
        )
    return Table(
        "surface_diagnostics",
        "Surface diagnostics on the locked test (%)",
        ["method", "revised verdict", "paper", "exact receipt", "paper"],
        rows,
    )


def primary_comparison(
    metrics: Metrics, paper: Mapping[str, Any], methods: Mapping[str, str]
) -> Table:
    rows: list[list[Cell]] = []
    for role in ("direct_receipt", "cube"):
        method = methods[role]
        ci = dig(metrics, "inference", "methods", method, "receipt_accuracy")
        paper_value = paper["primary"][role]["receipt_accuracy"]
        if ci is None:
            rows.append([f"{role} ({method})", NOT_RUN, None, None, paper_value])
        else:
            rows.append(
                [
                    f"{role} ({method})",
                    pct(ci["estimate"]),
                    pct(ci["low"]),
                    pct(ci["high"]),
                    paper_value,
                ]
            )
    comp = dig(
        metrics,
        "inference",
        "comparisons",
        "cube_vs_direct_receipt",
        "outcomes",
        "receipt_accuracy",
    )
    p = paper["primary"]["cube_minus_direct"]
    if comp is None:
        rows.append(["cube − direct_receipt", NOT_RUN, None, None, p["estimate"]])
    else:
        rows.append(
            [
                "cube − direct_receipt",
                pct(comp["estimate"]),
                pct(comp["low"]),
                pct(comp["high"]),
                p["estimate"],
            ]
        )
    holm = None if comp is None else comp.get("p_holm")
    note = f"Paper: cube − direct = {p['estimate']} [{p['low']}, {p['high']}], Holm p = {p['p_holm']}. Ours: Holm p = {holm if holm is not None else 'n/a'}."
    return Table(
        "primary_comparison",
        "Primary comparison: exact receipt accuracy on the locked test (%, 95% CI)",
        ["method", "estimate", "CI low", "CI high", "paper"],
        rows,
        note,
    )


def structural_subgroups(
    metrics: Metrics, paper: Mapping[str, Any], methods: Sequence[str]
) -> Table:
    header = ["subgroup", *methods, "paper cube − direct"]
    rows: list[list[Cell]] = []
    for family in ("stratum", "min_receipt_size", "ambiguity"):
        values: set[str] = set()
        for m in methods:
            for entry in (dig(metrics, "methods", m, "seeds") or {}).values():
                values |= set(dig(entry, "subgroups", family) or {})
        for value in sorted(values):
            row: list[Cell] = [f"{family}={value}"]
            for m in methods:
                v = (
                    seed_mean(metrics, m, "subgroups", family, value, "receipt_accuracy")
                    if has(metrics, m)
                    else None
                )
                row.append(pct(v) if has(metrics, m) else NOT_RUN)
            row.append(
                dig(paper, "subgroups", value, "cube_minus_direct") if family == "stratum" else None
            )
            rows.append(row)
    return Table(
        "structural_subgroups",
        "Exact receipt accuracy by structural subgroup, locked test (%)",
        header,
        rows,
    )


def verdict_receipt_separation(
    metrics: Metrics, paper: Mapping[str, Any], methods: Sequence[str]
) -> Table:
    rows: list[list[Cell]] = []
    for m in methods:
        ref = dig(paper, "separation", m.split("-")[-1]) or {}
        if not has(metrics, m):
            rows.append(
                [
                    m,
                    NOT_RUN,
                    ref.get("gold_change_receipt_accuracy"),
                    NOT_RUN,
                    ref.get("receipt_error_given_correct_endpoints"),
                ]
            )
            continue
        rows.append(
            [
                m,
                _locked(metrics, m, "gold_change_receipt_accuracy"),
                ref.get("gold_change_receipt_accuracy"),
                _locked(metrics, m, "receipt_error_given_correct_endpoints"),
                ref.get("receipt_error_given_correct_endpoints"),
            ]
        )
    return Table(
        "verdict_receipt_separation",
        "Verdict–receipt separation, locked test (%)",
        [
            "method",
            "receipt acc. on gold changes",
            "paper",
            "receipt error | both endpoints right",
            "paper",
        ],
        rows,
    )


def paired_consistency(metrics: Metrics, paper: Mapping[str, Any], methods: Sequence[str]) -> Table:
    rows: list[list[Cell]] = []
    for m in methods:
        ref = dig(paper, "consistency", m.split("-")[-1], "permutation")
        if not has(metrics, m):
            rows.append([m, NOT_RUN, NOT_RUN, NOT_RUN, NOT_RUN, ref])
            continue
        cells: list[Cell] = [m]
        for kind in ("inverse", "permutation", "distractor"):
            cells.append(pct(seed_mean(metrics, m, "consistency", kind, "consistency")))
        bound = seed_mean(metrics, m, "consistency", "permutation", "error_lower_bound")
        rows.append([*cells, pct(bound), ref])
    return Table(
        "paired_consistency",
        "Paired consistency per control, locked test (%)",
        [
            "method",
            "inverse",
            "permutation",
            "distractor",
            "error lower bound (perm.)",
            "paper (perm.)",
        ],
        rows,
        "Inverse pairs are checked on what execution guarantees (docs/controls.md); n/a = nothing checkable.",
    )


def _avg(points: Sequence[Mapping[str, Any]], key: str) -> float | None:
    """Mean over seeds, skipping undefined values (an undefined debt is not a zero debt)."""
    xs = [p[key] for p in points if p[key] is not None]
    return sum(xs) / len(xs) if xs else None


def selective_debt(metrics: Metrics, paper: Mapping[str, Any], methods: Sequence[str]) -> Table:
    rows: list[list[Cell]] = []
    for m in methods:
        seeds = dig(metrics, "methods", m, "seeds") or {}
        ref = dig(paper, "selective", m.split("-")[-1]) or {}
        if not seeds:
            rows.append(
                [m, NOT_RUN, None, None, None, None, ref.get("coverage"), ref.get("reason_debt")]
            )
            continue
        first = next(iter(seeds.values()))
        for source, curve in sorted((first.get("selective") or {}).items()):
            for i, point in enumerate(curve):
                values = [
                    dig(s, "selective", source)[i]
                    for s in seeds.values()
                    if dig(s, "selective", source)
                ]

                rows.append(
                    [
                        m,
                        source,
                        pct(point["target_coverage"]),
                        pct(_avg(values, "coverage")),
                        pct(_avg(values, "reason_debt")),
                        pct(_avg(values, "gold_change_recall")),
                        ref.get("coverage"),
                        ref.get("reason_debt"),
                    ]
                )
    return Table(
        "selective_debt",
        "Selective reason debt: thresholds fitted on calibration, applied to the locked test (%)",
        [
            "method",
            "confidence source",
            "target coverage",
            "coverage",
            "reason debt",
            "gold-change recall",
            "paper coverage",
            "paper debt",
        ],
        rows,
        "Reason debt is — (undefined) when nothing is accepted.",
    )


def cardinality(metrics: Metrics, paper: Mapping[str, Any], method: str) -> Table:
    ref = paper["cardinality"]["single_source_trained"]
    rows: list[list[Cell]] = []
    for m in (method, "tfidf", "majority"):
        if not has(metrics, m):
            rows.append(
                [
                    m,
                    NOT_RUN,
                    NOT_RUN,
                    ref["revised_verdict_accuracy"] if m == method else None,
                    ref["receipt_accuracy"] if m == method else None,
                ]
            )
            continue
        verdict = pct(
            seed_mean(metrics, m, "splits", "cardinality_test", "revised_verdict_accuracy")
        )
        receipt = pct(seed_mean(metrics, m, "splits", "cardinality_test", "receipt_accuracy"))
        rows.append(
            [
                m,
                verdict,
                receipt,
                ref["revised_verdict_accuracy"] if m == method else None,
                ref["receipt_accuracy"] if m == method else None,
            ]
        )
    return Table(
        "cardinality",
        "Cardinality experiment: multi-source test changes (%)",
        ["method", "revised verdict", "exact receipt", "paper verdict", "paper receipt"],
        rows,
        f"{method} is trained on single-source changes only; baselines are trained on the main train split.",
    )


def permutation_augmentation(
    metrics: Metrics, paper: Mapping[str, Any], methods: Sequence[str]
) -> Table:
    rows: list[list[Cell]] = []
    for m in methods:
        target = m.split("-")[-2] if m.endswith("permaug") else m
        ref = dig(paper, "augmentation", target) or {}
        if not has(metrics, m):
            rows.append(
                [
                    m,
                    NOT_RUN,
                    ref.get("permutation"),
                    ref.get("permutation_logical"),
                    ref.get("permutation_organizational"),
                ]
            )
            continue
        rows.append(
            [
                m,
                pct(seed_mean(metrics, m, "consistency", "permutation", "consistency")),
                ref.get("permutation"),
                ref.get("permutation_logical"),
                ref.get("permutation_organizational"),
            ]
        )
    return Table(
        "permutation_augmentation",
        "Permutation-augmented training: order consistency (%)",
        ["method", "permutation consistency", "paper", "paper logical", "paper organizational"],
        rows,
    )
