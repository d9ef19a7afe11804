"""docs/reliability.md shows the exact line every mistake gets: the page is regenerated from the
real messages here and must equal the committed one (scripts/reliability_table.py rewrites it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def table_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "reliability", ROOT / "scripts" / "reliability_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_every_case_is_one_line_and_the_page_is_current(small_bench: Path) -> None:
    module = table_module()
    results = module.outcomes(small_bench.resolve())
    for case, code, line in results:
        assert code == 2 and line.startswith("reasonbench "), (case.mistake, code, line)
        assert ": error: " in line and "Traceback" not in line
    expected = module.page(small_bench.resolve(), results)
    committed = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert committed == expected, (
        "docs/reliability.md is stale: run python scripts/reliability_table.py"
    )
