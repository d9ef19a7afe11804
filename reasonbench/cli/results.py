"""``reasonbench baselines | analyze | tables | compare``: the CPU half of the paper's protocol,
and the check that two results agree."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from reasonbench.cli.hydra_app import add_hydra_parsers, fail

_RUN_KEYS = {"kind", "train_splits", "settings"}


def _settings(cfg: DictConfig, method: str, run: dict[str, Any]) -> dict[str, Any] | str:
    """A run's settings: its kind's section (``tfidf.*``, where the command declares one) under
    the run's own ``runs.<method>.settings``; or the one-line error naming a key the section
    does not have."""
    node = cfg.get(run["kind"])  # a built-in kind's defaults: the top-level section of its name
    if not isinstance(node, DictConfig):  # a kind named like another key (seed, make) has none
        node = None
    section: dict[str, Any] = {} if node is None else OmegaConf.to_container(node, resolve=True)  # type: ignore[assignment]
    own = run.get("settings") or {}
    if node is not None:
        for key in own:
            if key not in section:
                return (
                    f"runs.{method}.settings.{key}: not a setting of baseline kind "
                    f"{run['kind']!r} (its settings: {', '.join(section)})"
                )
    return {**section, **own}


def run_baselines(cfg: DictConfig) -> int:
    from reasonbench.baselines import BASELINES, BaselineSettingsError, load_rows
    from reasonbench.io import OutputDir, parquet_bytes
    from reasonbench.predictions.io import records_table
    from reasonbench.registry import RegistryError

    runs: Any = OmegaConf.to_container(cfg.runs, resolve=True)
    settings_of: dict[str, dict[str, Any]] = {}
    for method in cfg.make:  # every mistake is refused before anything is trained
        if method not in runs:
            return fail(
                "baselines",
                f"unknown baseline {method!r} in make; the configured runs: "
                f"{', '.join(sorted(runs))} (runs: reasonbench baselines --help)",
            )
        run = runs[method]
        if not isinstance(run, dict) or not {"kind", "train_splits"} <= set(run) <= _RUN_KEYS:
            return fail(
                "baselines",
                f"runs.{method}: expected {{kind, train_splits, settings}}, got {run!r}",
            )
        try:
            BASELINES.get(str(run["kind"]))
        except RegistryError as exc:
            return fail("baselines", f"runs.{method}.kind: {exc}")
        settings = _settings(cfg, method, run)
        if isinstance(settings, str):
            return fail("baselines", settings)
        settings_of[method] = settings
    try:
        rows = load_rows(Path(cfg.data_dir))
    except FileNotFoundError as exc:
        return fail("baselines", str(exc))
    for method in cfg.make:
        missing = [s for s in runs[method]["train_splits"] if s not in rows]
        if missing:
            return fail(
                "baselines", f"runs.{method}.train_splits: no split(s) {missing} in {cfg.data_dir}"
            )
    out = OutputDir(Path(cfg.out_dir), "baselines", bool(cfg.overwrite))
    for method in cfg.make:
        start = time.perf_counter()
        run = runs[method]
        train = [str(s) for s in run["train_splits"]]
        try:
            records = BASELINES.get(run["kind"])(rows, str(method), train, settings_of[method])
        except BaselineSettingsError as exc:  # a kind refusing a setting (a plug-in's included)
            return fail("baselines", f"runs.{method}.settings: {exc}")
        with out:
            out.write_bytes(f"{method}.parquet", parquet_bytes(records_table(records)))
        print(
            f"{method}: {len(records):,} prediction records in {time.perf_counter() - start:.1f} s "
            f"-> {out.path(f'{method}.parquet')}"
        )
    return 0


def run_analyze(cfg: DictConfig) -> int:
    from reasonbench.analysis.analyze import CalibrationSettings, TwoPlaneSettings, analyze
    from reasonbench.analysis.selective import MixedSourceError
    from reasonbench.analysis.two_plane import TwoPlaneError
    from reasonbench.io import OutputDir
    from reasonbench.predictions import PredictionFileError

    comparisons: Any = OmegaConf.to_container(cfg.comparisons, resolve=True)
    repairs: Any = OmegaConf.to_container(cfg.repairs, resolve=True)
    roles: Any = OmegaConf.to_container(cfg.methods, resolve=True)
    try:
        metrics = analyze(
            Path(cfg.data_dir),
            Path(cfg.predictions_dir),
            comparisons,
            cfg.replicates,
            cfg.seed,
            cfg.allow_mixed_sources,
            repairs=repairs,
            role_map=roles,
            calibration=CalibrationSettings(
                tuple(cfg.calibration_maps),
                tuple(cfg.selective_on),
                cfg.reliability_bins,
                cfg.calibration_min_points,
            ),
            two_plane=TwoPlaneSettings(tuple(cfg.two_plane_splits), cfg.two_plane_scale),
            progress=bool(cfg.progress),
        )
    except (FileNotFoundError, PredictionFileError, MixedSourceError, TwoPlaneError) as exc:
        return fail("analyze", str(exc))
    metrics["config"] = OmegaConf.to_container(cfg, resolve=True)
    out = Path(cfg.out)
    with OutputDir(out.parent, "analyze", bool(cfg.overwrite)) as directory:
        directory.write_json(out.name, metrics)
    print(f"analyzed {len(metrics['methods'])} method(s) -> {out}")
    return 0


def run_tables(cfg: DictConfig) -> int:
    from reasonbench.paper_figures import paper_figures
    from reasonbench.reports.build import write_reports
    from reasonbench.reports.curves import CurveError, read_curve

    metrics_path, manifest_path = Path(cfg.metrics), Path(cfg.data_dir) / "MANIFEST.json"
    for path in (metrics_path, manifest_path):
        if not path.is_file():
            return fail(
                "tables", f"{path} not found (run 'reasonbench analyze' / 'generate' first)"
            )
    metrics = json.loads(metrics_path.read_text())
    manifest = json.loads(manifest_path.read_text())
    stats, strata = manifest["stats"], manifest["config"]["strata"]
    methods: Any = OmegaConf.to_container(cfg.methods, resolve=True)
    try:
        curves = [read_curve(Path(str(run))) for run in cfg.curves]
    except CurveError as exc:
        return fail("tables", f"{exc}, key curves")
    written = write_reports(
        metrics,
        stats,
        paper_figures(),
        methods,
        Path(cfg.out_dir),
        bool(cfg.overwrite),
        curves,
        strata=strata,
    )
    print(
        f"wrote {len(written['tables'])} tables and {len(written['figures'])} figures under {cfg.out_dir}"
    )
    return 0


def run_compare(cfg: DictConfig) -> int:
    from reasonbench.reports.compare import CompareError, Tolerance, compare

    for key in ("left", "right"):
        if OmegaConf.is_missing(cfg, key):
            return fail(
                "compare",
                f"set {key}=... (a metrics file or a results directory), in the command line",
            )
    try:
        tolerance = Tolerance(cfg.rtol, cfg.atol)
        comparison = compare(
            Path(cfg.left),
            Path(cfg.right),
            tolerance,
            list(cfg.digests),
            list(cfg.machine),
            cfg.fit_atol,
        )
    except CompareError as exc:
        return fail("compare", f"{exc}, in the command line")
    for line in comparison.lines():
        print(line)
    return 0 if comparison.agree else 1


COMMANDS = {
    "baselines": (
        run_baselines,
        "majority and char TF-IDF baselines -> prediction records (Hydra)",
    ),
    "analyze": (
        run_analyze,
        "score predictions: accuracy, accounting, consistency, bootstrap, debt (Hydra)",
    ),
    "tables": (run_tables, "write the paper's tables (md/csv/tex) and figures (png) (Hydra)"),
    "compare": (
        run_compare,
        "two metrics files or results directories under the reproducibility contract; exit 1 if "
        "they differ (Hydra)",
    ),
}


def add_parsers(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, COMMANDS)
