"""Bootstrap CIs per method and paired comparisons with Holm adjustment (co-primary outcomes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from reasonbench.analysis.bootstrap import (
    FloatArray,
    Resamples,
    holm,
    paired_p_value,
    percentile_interval,
    replicate_means,
    unit_sums,
)
from reasonbench.analysis.scoring import Scored


def _verdict(r: Scored) -> bool:
    return r.verdict_correct


def _receipt(r: Scored) -> bool:
    return bool(r.receipt_correct)


OUTCOMES: dict[str, Callable[[Scored], bool]] = {
    "revised_verdict_accuracy": _verdict,
    "receipt_accuracy": _receipt,
}


def _matrix(
    per_seed: Mapping[int, Sequence[Scored]], ids: Sequence[str], outcome: str
) -> FloatArray:
    index = {example_id: j for j, example_id in enumerate(ids)}
    out = np.zeros((len(per_seed), len(ids)))
    for s, seed in enumerate(sorted(per_seed)):
        for r in per_seed[seed]:
            out[s, index[r.gold.example_id]] = float(OUTCOMES[outcome](r))
    return out


def bootstrap_report(
    locked: Mapping[str, Mapping[int, Sequence[Scored]]],  # method -> seed -> scored test_locked
    receipt_methods: set[str],
    comparisons: Sequence[Mapping[str, str]],
    replicates: int,
    seed: int,
) -> dict[str, Any]:
    if not locked:
        return {"methods": {}, "comparisons": {}}
    any_rows = next(iter(next(iter(locked.values())).values()))
    ids = sorted(r.gold.example_id for r in any_rows)
    units = sorted({r.gold.unit_id for r in any_rows})
    unit_of = {r.gold.example_id: units.index(r.gold.unit_id) for r in any_rows}
    unit_index = np.array([unit_of[i] for i in ids])
    sizes = np.bincount(unit_index, minlength=len(units)).astype(float)
    n_seeds = max(len(v) for v in locked.values())
    rng = np.random.default_rng(seed)
    draws = Resamples.draw(len(units), n_seeds, replicates, rng)

    def distribution(method: str, outcome: str) -> tuple[float, FloatArray]:
        matrix = _matrix(locked[method], ids, outcome)
        # methods with fewer seeds (deterministic baselines) reuse their seeds cyclically
        matrix = matrix[np.arange(n_seeds) % matrix.shape[0]]
        sums = unit_sums(matrix, unit_index, len(units))
        return float(matrix.mean()), replicate_means(sums, sizes, draws)

    methods: dict[str, Any] = {}
    for method in sorted(locked):
        outcomes = [o for o in OUTCOMES if o != "receipt_accuracy" or method in receipt_methods]
        methods[method] = {}
        for outcome in outcomes:
            estimate, dist = distribution(method, outcome)
            methods[method][outcome] = percentile_interval(estimate, dist).to_json()
    results: dict[str, Any] = {}
    raw_p: dict[str, float] = {}
    for comp in comparisons:
        a, b = comp["a"], comp["b"]
        if a not in locked or b not in locked:
            results[comp["name"]] = {"status": "not run", "a": a, "b": b}
            continue
        results[comp["name"]] = {"status": "ok", "a": a, "b": b, "outcomes": {}}
        for outcome in OUTCOMES:
            if outcome == "receipt_accuracy" and not {a, b} <= receipt_methods:
                continue
            est_a, dist_a = distribution(a, outcome)
            est_b, dist_b = distribution(b, outcome)
            diff = dist_a - dist_b
            key = f"{comp['name']}:{outcome}"
            raw_p[key] = paired_p_value(diff)
            results[comp["name"]]["outcomes"][outcome] = {
                **percentile_interval(est_a - est_b, diff).to_json(),
                "p_value": raw_p[key],
            }
    adjusted = holm(raw_p)
    for key, p in adjusted.items():
        name, outcome = key.split(":")
        results[name]["outcomes"][outcome]["p_holm"] = p
    return {
        "replicates": replicates,
        "units": len(units),
        "seeds": n_seeds,
        "methods": methods,
        "comparisons": results,
    }
