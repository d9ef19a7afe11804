"""``reasonbench analyze``: score a directory of prediction records and write ``metrics.json``.

1. Load gold and every prediction record; refuse bad records (``analysis/validate.py``), naming
   the file and line, and methods that mix targets or contradict their role.
2. Per method and seed: every registered metric per split, structural subgroups on the locked
   test and the cardinality test, paired consistency per stratum, calibration per confidence
   source and selective debt (``analysis/seed.py``); per split, the counts pooled over seeds;
   the two-plane audit of every method that proposes receipts (``analysis/trusted.py``). Each
   record is scored once and each calibration map fitted once per method and seed; every step
   reads those.
3. The hierarchical bootstrap per split and the configured comparisons, Holm per family, and
   the configured consistency repairs (``analysis/inference.py``).
4. The gold revised-verdict mix per split and stratum (what a majority diagnostic can reach),
   and the plug-ins loaded (``tables`` loads them too; docs/extending.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from reasonbench.analysis.calibration import CALIBRATION, SeedMaps
from reasonbench.analysis.consistency import PairOutcome, gold_top_answer, pair_outcomes
from reasonbench.analysis.gold import Gold, load_gold, split_ids
from reasonbench.analysis.inference import (
    ComparisonSpec,
    RepairSpec,
    co_primary,
    compare,
    design,
    holm_within,
    method_intervals,
    repair,
)
from reasonbench.analysis.methods import SettingsError, method_info, roles
from reasonbench.analysis.metrics import METRICS, metric_info, pool
from reasonbench.analysis.record import (
    FORMAT,
    Inference,
    MethodEntry,
    MetricsReport,
    Plugin,
    SeedEntry,
)
from reasonbench.analysis.scoring import Scored, carried, score
from reasonbench.analysis.seed import CONTROLS, LOCKED, CalibrationSettings, seed_entry
from reasonbench.analysis.trusted import TrustedPlane, TwoPlaneSettings, seed_points
from reasonbench.analysis.validate import check_targets, label_sets, record_checker
from reasonbench.io import data_identity, read_manifest
from reasonbench.plugins import loaded_plugins
from reasonbench.predictions.load import load_predictions
from reasonbench.predictions.record import PredictionRecord
from reasonbench.progress import Progress
from reasonbench.strata.base import Stratum

__all__ = ["CalibrationSettings", "TwoPlaneSettings", "analyze", "analyze_report"]

CARDINALITY = "cardinality_test"
BOOTSTRAPPED = (LOCKED, CARDINALITY)  # plus every split a comparison names

# hierarchical-bootstrap replicates: the one default (`reasonbench analyze replicates=` reads it)
REPLICATES = 10_000

Rows = dict[str, dict[str, dict[int, list[Scored]]]]  # split -> method -> seed -> scored
Pairs = dict[str, dict[int, list[PairOutcome]]]  # method -> seed -> its locked control pairs


def verdict_mix(gold: Mapping[str, Gold]) -> dict[str, dict[str, dict[str, int]]]:
    """Gold revised verdicts counted per split and stratum (controls and cardinality included)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for g in gold.values():
        counts = out.setdefault(g.split, {}).setdefault(g.stratum, {})
        counts[g.receipt.new] = counts.get(g.receipt.new, 0) + 1
    return {
        split: {
            stratum: dict(sorted(counts.items())) for stratum, counts in sorted(out[split].items())
        }
        for split in sorted(out)
    }


def _inference(
    scored: Rows,
    specs: Sequence[ComparisonSpec],
    targets: Mapping[str, str],
    replicates: int,
    seed: int,
    repairs: Sequence[RepairSpec] = (),
    pairs: Pairs | None = None,
) -> Inference:
    outcomes = {
        m: [o for o in co_primary() if METRICS.get(o).applies(carried(t))]
        for m, t in targets.items()
    }
    applicable = {
        m: [o for o in METRICS if METRICS.get(o).applies(carried(t))] for m, t in targets.items()
    }
    designs = {s: design(s, scored[s], replicates, seed) for s in sorted(scored)}
    splits = {s: method_intervals(d, outcomes) for s, d in designs.items() if d is not None}
    results = [compare(spec, designs.get(spec.split), spec.outcomes(applicable)) for spec in specs]
    families: dict[str, list[str]] = {}
    for spec in specs:
        families.setdefault(spec.family, []).append(spec.name)
    fixed = {r.name: repair(r, designs.get(LOCKED), pairs or {}) for r in repairs}
    return Inference(replicates, seed, splits, holm_within(results), families, fixed)


def analyze_report(
    data_dir: Path,
    predictions_dir: Path,
    comparisons: Sequence[Mapping[str, Any]] = (),
    replicates: int = REPLICATES,
    seed: int = 0,
    allow_mixed_sources: bool = False,
    *,
    repairs: Sequence[Mapping[str, Any]] = (),
    role_map: Mapping[str, Any] | None = None,
    calibration: CalibrationSettings | None = None,
    two_plane: TwoPlaneSettings | None = None,
    strata: Mapping[str, Stratum] | None = None,
    progress: bool = False,
) -> MetricsReport:
    """The typed report (``metrics.json`` is its JSON form). ``repairs``: consistency repairs
    (``{name, after, before, kind}``). ``two_plane``: the audit's settings (``None``: no audit).
    The audit executes the stored states through ``strata``, the strata the benchmark was built
    with (default: the registered ones)."""
    settings = calibration or CalibrationSettings()
    audit = two_plane or TwoPlaneSettings(splits=())  # the API runs no audit unless asked
    specs = [ComparisonSpec.of(c) for c in comparisons]
    fixes = [RepairSpec.of(r) for r in repairs]
    for what, names in (
        ("comparison", [s.name for s in specs]),
        ("repair", [r.name for r in fixes]),
    ):
        if len(set(names)) != len(names):
            raise SettingsError(f"{what} names must be unique, got {names}")
    repaired = {m for r in fixes for m in (r.after, r.before)}
    pairs: Pairs = defaultdict(dict)
    gold = load_gold(data_dir)
    check = record_checker(gold, label_sets(gold))
    records = load_predictions(predictions_dir, split_ids(gold), check)
    by_method: dict[str, list[PredictionRecord]] = defaultdict(list)
    for rec in records:
        by_method[rec.method].append(rec)
    targets = check_targets(by_method)
    role_table = roles(role_map)
    wanted = {*BOOTSTRAPPED, *(s.split for s in specs)}
    scored: Rows = defaultdict(dict)
    methods: dict[str, MethodEntry] = {}
    plane = TrustedPlane(
        data_dir, gold, strata
    )  # one plane: a case's certificate is method-independent
    with Progress(len(records), "analyze", "records", enabled=progress) as bar:
        for method in sorted(by_method):
            fields = carried(targets[method])
            audited = bool(audit.splits) and not fields.verdict_only  # a verdict proposes none
            # each record is scored once here; the metrics, the calibration maps and the audit
            # all read these rows, and each seed's maps are fitted once (SeedMaps) for both
            per_seed: dict[int, list[Scored]] = defaultdict(list)
            for rec in by_method[method]:
                per_seed[rec.seed].append(score(gold[rec.example_id], rec))
            seeds: dict[str, SeedEntry] = {}
            for s in sorted(per_seed):
                by_split: dict[str, list[Scored]] = defaultdict(list)
                for row in per_seed[s]:
                    by_split[row.record.split].append(row)
                splits = {name: by_split[name] for name in sorted(by_split)}
                maps = SeedMaps(splits.get(CALIBRATION, ()), settings.min_points)
                entry = seed_entry(splits, fields, settings, allow_mixed_sources, maps)
                evaluated = [r for r in per_seed[s] if audited and r.record.split in audit.splits]
                if evaluated:
                    points = seed_points(evaluated, maps[audit.scale], plane.certify)
                    entry = replace(entry, two_plane=points)
                seeds[str(s)] = entry
                for name in wanted & set(splits):
                    scored[name].setdefault(method, {})[s] = splits[name]
                if method in repaired and LOCKED in splits and CONTROLS in splits:
                    parents = {r.gold.example_id: r for r in splits[LOCKED]}
                    pairs[method][s] = pair_outcomes(parents, splits[CONTROLS])
                bar.update(len(per_seed[s]))
            split_names = sorted({n for entry in seeds.values() for n in entry.splits})
            pooled = {
                n: pool(e.splits[n] for e in seeds.values() if n in e.splits) for n in split_names
            }
            info = method_info(method, targets[method], sorted(per_seed), split_names, role_table)
            methods[method] = MethodEntry(info, seeds, pooled)
    identity = data_identity(read_manifest(data_dir))
    return MetricsReport(
        format=FORMAT,
        data_manifest_sha256=identity.manifest_sha256,
        benchmark=identity.benchmark,
        metrics=metric_info(),
        methods=methods,
        inference=_inference(dict(scored), specs, targets, replicates, seed, fixes, dict(pairs)),
        verdict_mix=verdict_mix(gold),
        gold_top_answer=gold_top_answer([g for g in gold.values() if g.split == LOCKED]),
        plugins=[
            Plugin(str(p["module"]), p["distribution"], p["version"]) for p in loaded_plugins()
        ],
    )


def analyze(
    data_dir: Path,
    predictions_dir: Path,
    comparisons: Sequence[Mapping[str, Any]] = (),
    replicates: int = REPLICATES,
    seed: int = 0,
    allow_mixed_sources: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """``metrics.json`` as a JSON object (see :func:`analyze_report` for the options)."""
    return analyze_report(
        data_dir, predictions_dir, comparisons, replicates, seed, allow_mixed_sources, **options
    ).to_json()
