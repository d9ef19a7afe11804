"""``python -m reasonbench``: the same as the ``reasonbench`` console script."""

import sys

from reasonbench.cli.main import main

sys.exit(main())
