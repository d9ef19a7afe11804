"""``reasonbench analyze``: score a directory of prediction records and write ``metrics.json``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.analysis.gold import load_gold, split_ids
from reasonbench.analysis.inference import bootstrap_report
from reasonbench.analysis.metrics import paired_consistency, subgroups, summarize
from reasonbench.analysis.scoring import Scored, accounts_for_changes, score
from reasonbench.analysis.selective import Decision, selective_curve
from reasonbench.io import manifest_hash, read_manifest
from reasonbench.predictions.load import load_predictions
from reasonbench.predictions.record import PredictionRecord

LOCKED, CONTROLS, CALIBRATION = "test_locked", "controls_locked", "calibration"


def _decision(r: Scored) -> Decision:
    predicted_change = (
        r.said.old is not None and r.said.new is not None and r.said.old != r.said.new
    )
    return Decision(
        predicted_change=predicted_change,
        account_correct=r.account_correct,
        gold_changed=not r.gold.receipt.stable,
        confidence=r.record.confidence,
        source=r.record.confidence_source or "none",
    )


def _selective(per_split: Mapping[str, Sequence[Scored]], allow_mixed: bool) -> dict[str, Any]:
    """Per confidence source: thresholds fitted on calibration, applied to the locked test."""
    if CALIBRATION not in per_split or LOCKED not in per_split:
        return {}
    calib = [_decision(r) for r in per_split[CALIBRATION]]
    test = [_decision(r) for r in per_split[LOCKED]]
    sources = sorted({d.source for d in calib + test})
    out = {}
    for source in sources if not allow_mixed else ["+".join(sources)]:
        c = [d for d in calib if allow_mixed or d.source == source]
        t = [d for d in test if allow_mixed or d.source == source]
        out[source] = [row.to_json() for row in selective_curve(c, t, allow_mixed=allow_mixed)]
    return out


def analyze(
    data_dir: Path,
    predictions_dir: Path,
    comparisons: Sequence[Mapping[str, str]] = (),
    replicates: int = 10_000,
    seed: int = 0,
    allow_mixed_sources: bool = False,
) -> dict[str, Any]:
    gold = load_gold(data_dir)
    records = load_predictions(predictions_dir, split_ids(gold))
    by_method: dict[str, list[PredictionRecord]] = defaultdict(list)
    for rec in records:
        by_method[rec.method].append(rec)
    methods: dict[str, Any] = {}
    locked: dict[str, dict[int, list[Scored]]] = {}
    receipt_methods = set()
    for method in sorted(by_method):
        rows = by_method[method]
        accounts = accounts_for_changes(rows)
        if accounts:
            receipt_methods.add(method)
        per_seed: dict[int, dict[str, list[Scored]]] = defaultdict(lambda: defaultdict(list))
        for rec in rows:
            per_seed[rec.seed][rec.split].append(score(gold[rec.example_id], rec, accounts))
        seeds: dict[str, Any] = {}
        for s in sorted(per_seed):
            splits = per_seed[s]
            entry: dict[str, Any] = {
                "splits": {name: summarize(splits[name]) for name in sorted(splits)},
                "confidence_sources": sorted(
                    {r.record.confidence_source or "none" for v in splits.values() for r in v}
                ),
            }
            if LOCKED in splits:
                entry["subgroups"] = subgroups(splits[LOCKED])
                locked.setdefault(method, {})[s] = splits[LOCKED]
                if CONTROLS in splits:
                    parents = {r.gold.example_id: r for r in splits[LOCKED]}
                    entry["consistency"] = paired_consistency(parents, splits[CONTROLS])
            entry["selective"] = _selective(splits, allow_mixed_sources)
            seeds[str(s)] = entry
        methods[method] = {"accounts_for_changes": accounts, "seeds": seeds}
    manifest = read_manifest(data_dir)
    return {
        "data_manifest_sha256": manifest_hash(manifest),
        "benchmark": manifest.get("config", {}).get("name"),
        "methods": methods,
        "inference": bootstrap_report(locked, receipt_methods, comparisons, replicates, seed),
    }
