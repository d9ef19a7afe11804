"""What ``tests/train/test_distributed.py`` runs under ``accelerate launch``: ``reasonbench train``
then ``reasonbench predict`` in the same processes (one launch instead of two; each command
exactly as the CLI runs it). Arguments: the train overrides, ``--``, the predict overrides."""

from __future__ import annotations

import sys

from reasonbench.cli.main import main

if __name__ == "__main__":
    split = sys.argv.index("--")
    train, predict = sys.argv[1:split], sys.argv[split + 1 :]
    code = main(["train", *train]) or main(["predict", *predict])
    raise SystemExit(code)
