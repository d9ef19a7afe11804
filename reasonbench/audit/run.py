"""``reasonbench audit``: re-execute every gold label and check the benchmark's structure.

Writes ``AUDIT.json`` and ``AUDIT.md`` (into ``audit_dir``, outside the hashed data directory) and
returns a non-zero exit status on any failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reasonbench.audit import checks, margins, reexecute
from reasonbench.controls import CONTROL_KINDS
from reasonbench.io import (
    CARDINALITY_DIR,
    OutputDir,
    data_identity,
    paused_collector,
    read_manifest,
    read_splits,
)
from reasonbench.io.parallel import pmap
from reasonbench.strata.base import Stratum
from reasonbench.strata.registry import load_strata

CHUNK = 500
SHOW = 20  # problems listed per check in the Markdown summary


def _check_chunk(chunk: Sequence[dict[str, Any]]) -> tuple[list[str], margins.MarginSummary]:
    """Label errors and threshold margins of a chunk, in one worker (shared adjudicator caches)."""
    errors = [e for record in chunk for e in reexecute.label_errors(record)]
    return errors, margins.chunk_margins(chunk)


def audit(
    data_dir: Path,
    workers: int = 1,
    progress: bool = True,
    strata: Mapping[str, Stratum] | None = None,
) -> dict[str, Any]:
    """Re-execute every stored label and run the leakage, overlap, control, shift, quota and
    margin checks; returns the report. The cyclic garbage collector is paused for the call and
    restored after (:mod:`reasonbench.io.collector`)."""
    with paused_collector():
        return _audit(data_dir, workers, progress, strata)


def _audit(
    data_dir: Path, workers: int, progress: bool, strata: Mapping[str, Stratum] | None
) -> dict[str, Any]:
    manifest = read_manifest(data_dir, required=True)
    config, identity = manifest["config"], data_identity(manifest)
    splits = read_splits(data_dir, with_cardinality=False)
    card_dir = data_dir / CARDINALITY_DIR
    cardinality = read_splits(card_dir, with_cardinality=False) if card_dir.is_dir() else {}
    loaded = dict(strata) if strata is not None else load_strata(config["strata"])
    reexecute.install(loaded)

    def applicable(kind: str, stratum: str) -> bool:
        return CONTROL_KINDS.get(kind).applies(loaded[stratum])

    everything = [r for rows in (*splits.values(), *cardinality.values()) for r in rows]
    chunks = [everything[i : i + CHUNK] for i in range(0, len(everything), CHUNK)]
    checked = pmap(
        _check_chunk,
        chunks,
        workers,
        f"audit labels ({CHUNK} records a chunk)",
        progress,
        "chunks",
    )  # fmt: skip
    label_problems = [e for errs, _ in checked for e in errs]
    margin_report = margins.merge([m for _, m in checked])
    controls_checked, control_problems = checks.control_relations(
        splits, config["controls"]["kinds"], applicable
    )
    sections = {
        "label_errors": label_problems,
        "unit_leakage": checks.unit_leakage(splits),
        "prompt_overlap": checks.prompt_overlap(splits),
        "controls": control_problems,
        "shift_rules": checks.shift_rules(splits, config),
        "quotas": checks.quota_check(splits, config, applicable),
        "margins": margin_report.problems,
    }
    return {
        "benchmark": identity.benchmark,
        "data_manifest_sha256": identity.manifest_sha256,
        "records_reexecuted": len(everything),
        "controls_reproduced": controls_checked - len(control_problems),
        "controls_checked": controls_checked,
        "counts": {name: len(problems) for name, problems in sections.items()},
        "margins": margin_report.to_json(),
        "problems": {name: problems[:1000] for name, problems in sections.items()},
        "passed": not any(sections.values()),
    }


def summary_markdown(result: dict[str, Any]) -> str:
    lines = [
        f"# Audit of `{result['benchmark']}`",
        "",
        f"Data manifest sha256: `{result['data_manifest_sha256']}`",
        "",
        f"**{'PASSED' if result['passed'] else 'FAILED'}** — {result['records_reexecuted']:,} records "
        f"re-executed, {result['controls_reproduced']:,}/{result['controls_checked']:,} controls reproduced.",
        "",
        "| check | problems |",
        "|---|---|",
    ]
    lines += [f"| {name} | {count} |" for name, count in result["counts"].items()]
    if result.get("margins", {}).get("cells"):
        lines += margins.margin_table(result["margins"])
    for name, problems in result["problems"].items():
        if problems:
            lines += ["", f"## {name}", ""] + [f"- {p}" for p in problems[:SHOW]]
    return "\n".join(lines) + "\n"


def write_audit(result: dict[str, Any], audit_dir: Path, overwrite: bool = False) -> None:
    """``AUDIT.json`` and ``AUDIT.md``, each atomically; files of others are never replaced."""
    with OutputDir(audit_dir, "audit", overwrite) as out:
        for name in ("AUDIT.json", "AUDIT.md"):
            out.check(name)  # refuse before writing either, so the pair stays consistent
        out.write_json("AUDIT.json", result)
        out.write_text("AUDIT.md", summary_markdown(result))
