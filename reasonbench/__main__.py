"""``python -m reasonbench``: the same as the ``reasonbench`` console script (Ctrl-C included)."""

import sys

from reasonbench.cli.entry import main

sys.exit(main())
