"""reasonbench: audit AI evaluators by their reasons (grounds, norms, authority), not only labels.

The public API is re-exported here; everything else is an implementation detail.
"""

from reasonbench.core import *  # noqa: F403 - the core's __all__ is the public API
from reasonbench.core import __all__ as _core_all

__version__ = "0.1.0"

__all__ = ["__version__", *_core_all]
