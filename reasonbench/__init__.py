"""reasonbench: audit AI evaluators by their reasons (grounds, norms, authority), not only labels.

The public API is the core's (:mod:`reasonbench.core`), re-exported here and imported on first use:
the console script must install its Ctrl-C handling before numpy loads (reasonbench/cli/entry.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from reasonbench.core import *  # noqa: F403 - the core's __all__ is the public API


def __getattr__(name: str) -> Any:
    from reasonbench import core

    if name == "__all__":
        return ["__version__", *core.__all__]
    if name in core.__all__:
        return getattr(core, name)
    raise AttributeError(f"module 'reasonbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    from reasonbench import core

    return sorted({*globals(), *core.__all__})
