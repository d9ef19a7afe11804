"""``reasonbench generate | audit | verify``: regenerate, audit and hash-check the benchmark."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from reasonbench.cli.hydra_app import CONF_DIR, add_hydra_parsers, fail
from reasonbench.io import CARDINALITY_DIR, MANIFEST, write_bytes

MANIFESTS = CONF_DIR.parent / "data" / "manifests"  # the committed ones verify reads by default
# where freeze=true writes: data/manifests of the working directory, never the installed package's
# (from the checkout's root, as maintainers run it, the same directory)
FROZEN = Path("data") / "manifests"


def run_generate(cfg: DictConfig) -> int:
    from reasonbench.assembly import SpecError, generate, spec_from_config
    from reasonbench.assembly.allocate import QuotaError

    container: Any = OmegaConf.to_container(cfg.benchmark, resolve=True)
    try:
        spec = spec_from_config(container)
        manifest = generate(
            spec, Path(cfg.out_dir), cfg.workers, cfg.progress, cfg.cardinality,
            overwrite=bool(cfg.overwrite),
        )  # fmt: skip
    except (SpecError, QuotaError) as exc:
        return fail("generate", str(exc))
    stats = manifest["stats"]
    print(
        f"wrote {stats['main_cases']:,} main cases and {stats['controls']:,} controls "
        f"to {cfg.out_dir}"
    )
    if cfg.get("freeze"):
        out = Path(cfg.out_dir)
        write_bytes(FROZEN / f"{spec.name}.json", (out / MANIFEST).read_bytes())
        card = out / CARDINALITY_DIR / MANIFEST
        if card.is_file():
            write_bytes(FROZEN / f"{spec.name}-cardinality.json", card.read_bytes())
        print(f"froze manifests into {FROZEN.resolve()}")
    return 0


def run_audit(cfg: DictConfig) -> int:
    from reasonbench.audit import audit, write_audit

    data_dir = Path(cfg.data_dir)
    try:
        result = audit(data_dir, cfg.workers, cfg.progress)
    except FileNotFoundError as exc:
        return fail("audit", str(exc))
    audit_dir = (
        Path(cfg.audit_dir) if cfg.audit_dir else Path("results/audit") / result["benchmark"]
    )
    write_audit(result, audit_dir, bool(cfg.overwrite))
    status = "PASSED" if result["passed"] else "FAILED"
    print(
        f"audit {status}: {result['records_reexecuted']:,} records re-executed, "
        f"{result['controls_reproduced']:,}/{result['controls_checked']:,} controls reproduced; "
        f"problems {result['counts']}; report in {audit_dir}"
    )
    return 0 if result["passed"] else 1


def run_verify(cfg: DictConfig) -> int:
    from reasonbench.audit import verify

    data_dir = Path(cfg.data_dir)
    manifest = Path(cfg.manifest) if cfg.manifest else MANIFESTS / f"{cfg.benchmark.name}.json"
    problems = verify(data_dir, manifest, exclude=("cardinality/",))
    card_manifest = manifest.with_name(manifest.stem + "-cardinality.json")
    if card_manifest.is_file() and not cfg.manifest:
        problems += [f"cardinality/{p}" for p in verify(data_dir / "cardinality", card_manifest)]
    if problems:
        for problem in problems:
            print(f"reasonbench verify: {problem}", file=sys.stderr)
        print(
            f"reasonbench verify: FAILED ({len(problems)} problem(s)) against {manifest}",
            file=sys.stderr,
        )
        return 1
    files = len(json.loads(manifest.read_text())["files"])
    print(f"verified {files} files in {data_dir} against {manifest}")
    return 0


def add_parsers(subparsers: Any) -> None:
    add_hydra_parsers(
        subparsers,
        {
            "generate": (
                run_generate,
                "regenerate the frozen benchmark splits (Hydra: benchmark=paper|small, out_dir=...)",
            ),
            "audit": (
                run_audit,
                "re-execute every gold label and check leakage, overlap, controls (Hydra: data_dir=...)",
            ),
            "verify": (
                run_verify,
                "check the generated files' sha256 against the committed manifest (data_dir=...)",
            ),
        },
        legacy={
            "verify": {
                "--data-dir": ("data_dir", True),
                "--benchmark": ("benchmark", True),
                "--manifest": ("manifest", True),
            }
        },
    )
