"""The ``reasonbench`` console script: Ctrl-C handling first, then the command line.

Nothing heavy is imported before :func:`reasonbench.cli.interrupt.install` runs (the package's
``__init__`` loads its core lazily), so a Ctrl-C during the imports, Hydra's composition or any
command ends in one line and exit status 130, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    from reasonbench.cli import interrupt

    args = sys.argv[1:] if argv is None else list(argv)
    interrupt.install(args[0] if args and not args[0].startswith("-") else "")
    try:
        from reasonbench.cli.main import main as run

        return run(args)
    except KeyboardInterrupt:
        interrupt.say()
        return interrupt.EXIT
    except Exception:
        if not interrupt.received():
            raise
        interrupt.say()  # an error raised while the interruption unwound: it is the interruption
        return interrupt.EXIT


if __name__ == "__main__":
    sys.exit(main())
