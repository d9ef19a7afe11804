"""The ``reasonbench`` command line: one console script, one module per subcommand."""

from reasonbench.cli.main import main

__all__ = ["main"]
