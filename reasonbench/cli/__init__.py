"""The ``reasonbench`` command line: one console script, one module per subcommand, and the
protocol's CPU rehearsal (:mod:`.rehearsal`), which drives that command line."""

from __future__ import annotations

from typing import Any

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    # lazy, so ``python -m reasonbench.cli.main`` does not import the module twice (runpy warns)
    if name == "main":
        from reasonbench.cli.main import main

        return main
    raise AttributeError(name)
