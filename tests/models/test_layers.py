"""The learning stack's import arrows point one way: train and infer both build on models, and
neither imports the other; judges use infer and models, never train."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "reasonbench"
FORBIDDEN = {
    "models": ("reasonbench.train", "reasonbench.infer", "reasonbench.judges"),
    "infer": ("reasonbench.train", "reasonbench.judges"),
    "judges": ("reasonbench.train",),
    "train": ("reasonbench.infer", "reasonbench.judges"),
}


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_import_arrows(package: str) -> None:
    bad = [
        f"{path.relative_to(PACKAGE.parent)} imports {name}"
        for path in sorted((PACKAGE / package).rglob("*.py"))
        for name in sorted(imports(path))
        if name.startswith(FORBIDDEN[package])
    ]
    assert not bad, bad


def test_only_trained_run_reads_run_json() -> None:
    readers = [
        str(path.relative_to(PACKAGE.parent))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "RUN.json" in path.read_text(encoding="utf-8")
        and path.name != "trained.py"
        and any(
            isinstance(n, ast.Constant) and n.value == "RUN.json"
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert not readers, f"RUN.json named outside reasonbench/models/trained.py: {readers}"
