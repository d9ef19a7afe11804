"""``reasonbench verify``: recompute file hashes against a committed manifest."""

from __future__ import annotations

import json
from pathlib import Path

from reasonbench.io import file_hashes


def verify(data_dir: Path, manifest_path: Path, exclude: tuple[str, ...] = ()) -> list[str]:
    """Every mismatch, missing file and unexpected file, by name (empty list = verified)."""
    if not manifest_path.is_file():
        return [f"manifest {manifest_path} not found"]
    if not data_dir.is_dir():
        return [f"data directory {data_dir} not found: run 'reasonbench generate' first"]
    expected = json.loads(manifest_path.read_text(encoding="utf-8"))["files"]
    actual = file_hashes(data_dir, exclude)
    problems = []
    for name, info in expected.items():
        if name not in actual:
            problems.append(f"missing: {name}")
        elif actual[name]["sha256"] != info["sha256"]:
            problems.append(
                f"mismatch: {name} (sha256 {actual[name]['sha256'][:12]}…, manifest {info['sha256'][:12]}…)"
            )
    problems += [f"unexpected: {name}" for name in actual if name not in expected]
    return problems
