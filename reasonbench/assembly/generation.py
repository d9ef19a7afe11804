"""``reasonbench generate``: build the benchmark and write it atomically with its manifests.

The build is written into a staging directory beside ``out_dir`` and swapped into place only
when everything succeeded; an existing ``out_dir`` is replaced only when it is a previous
benchmark build (its ``MANIFEST.json`` carries ``generator_version``), or when the user passes
``overwrite``. A failed or interrupted run removes its staging directory and leaves ``out_dir``
as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.assembly.card import dataset_card
from reasonbench.assembly.pipeline import Built, build
from reasonbench.assembly.spec import BenchmarkSpec
from reasonbench.assembly.stats import benchmark_stats
from reasonbench.assembly.write import manifest, write_splits
from reasonbench.io import (
    CARDINALITY_DIR,
    MANIFEST,
    OutputError,
    check_no_file_in_the_way,
    ensure_directory,
    manifest_hash,
    paused_collector,
    read_manifest,
    replace_directory,
    write_json,
    write_text,
)
from reasonbench.plugins import loaded_plugins
from reasonbench.strata.base import Stratum, SupportsCardNote
from reasonbench.strata.registry import load_strata

__all__ = ["CARDINALITY_DIR", "generate", "is_benchmark_build"]

BUILD = "a reasonbench benchmark build (no MANIFEST.json with a generator_version)"


def is_benchmark_build(directory: Path) -> bool:
    """Whether ``directory`` holds a build of ``reasonbench generate`` (its marker)."""
    try:
        return "generator_version" in read_manifest(directory)
    except (OSError, ValueError):
        return False


def _remove_stale_staging(out_dir: Path) -> None:
    """Staging directories of earlier runs that were killed (SIGKILL leaves no chance to clean
    up): ours by name, and stale because the process in the name is gone."""
    for path in out_dir.parent.glob(f".{out_dir.name}.staging-*-*"):
        pid = path.name.removeprefix(f".{out_dir.name}.staging-").split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # somebody else's process
    return True


def _staging_dir(out_dir: Path) -> Path:
    ensure_directory(out_dir.parent)
    try:
        _remove_stale_staging(out_dir)
        prefix = f".{out_dir.name}.staging-{os.getpid()}-"
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=out_dir.parent))
    except OSError as exc:
        raise OutputError(f"cannot write beside {out_dir}: {exc.strerror}") from None
    # mkdtemp makes the directory 0700; the build must follow the user's umask like any file
    umask = os.umask(0)
    os.umask(umask)
    staging.chmod(0o777 & ~umask)
    return staging


def check_out_dir(out_dir: Path, overwrite: bool) -> None:
    """Refuse, before any work, an ``out_dir`` that generate would not be allowed to replace."""
    check_no_file_in_the_way(out_dir)
    occupied = out_dir.is_dir() and any(out_dir.iterdir())
    if occupied and not overwrite and not is_benchmark_build(out_dir):
        raise OutputError(
            f"{out_dir} exists and is not {BUILD}; it is left untouched: choose another "
            "out_dir, or pass overwrite=true to replace it"
        )


def generate(
    spec: BenchmarkSpec,
    out_dir: Path,
    workers: int = 1,
    progress: bool = True,
    cardinality: bool = True,
    strata: Mapping[str, Stratum] | None = None,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Build and write; returns the main manifest. Nothing is replaced unless all succeeded.

    ``strata`` overrides the registered strata (tests use small stand-ins). The cyclic garbage
    collector is paused for the call and restored after (:mod:`reasonbench.io.collector`)."""
    out_dir = out_dir.resolve()
    check_out_dir(out_dir, overwrite)  # fail in a second, not after the build
    with paused_collector():
        strata = dict(strata) if strata is not None else load_strata(spec.strata)
        built = build(spec, strata, workers=workers, progress=progress, cardinality=cardinality)
        staging = _staging_dir(out_dir)
        try:
            main_manifest = _write_all(spec, built, staging, strata)
            replace_directory(staging, out_dir, is_benchmark_build, BUILD, overwrite)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)  # never leave a half-written tree behind
            raise
    return main_manifest


def _write_all(
    spec: BenchmarkSpec, built: Built, staging: Path, strata: Mapping[str, Stratum]
) -> dict[str, Any]:
    stats = benchmark_stats(built.splits, strata)
    write_splits(staging, built.splits)
    card_sizes = {name: len(rows) for name, rows in built.cardinality.items()}
    notes = [s.card_note for s in strata.values() if isinstance(s, SupportsCardNote)]
    write_text(staging / "README.md", dataset_card(spec, stats, card_sizes, notes))
    plugins = loaded_plugins()  # a later command reading the build loads them too
    main_manifest = manifest(
        staging, spec.to_json(), stats, exclude=(CARDINALITY_DIR + "/",), plugins=plugins
    )
    write_json(staging / MANIFEST, main_manifest)
    if built.cardinality:
        card_dir = staging / CARDINALITY_DIR
        write_splits(card_dir, built.cardinality)
        card_manifest = manifest(card_dir, spec.to_json(), card_sizes, plugins=plugins)
        card_manifest["main_manifest_sha256"] = manifest_hash(main_manifest)
        write_json(card_dir / MANIFEST, card_manifest)
    return main_manifest
