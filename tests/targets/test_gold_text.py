"""Every stored target is exactly what its registered serializer writes from the record's gold, so
a target registered after a benchmark was frozen is trained on the same gold as the frozen ones."""

from __future__ import annotations

import json
from pathlib import Path

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import receipt_of
from reasonbench.io import read_split
from reasonbench.targets import TARGETS, gold_text


def test_serializers_reproduce_every_stored_target(small_bench: Path) -> None:
    checked = 0
    for split in ("test_locked", "controls_locked", "cardinality_test"):
        for row in read_split(small_bench, split):
            cube = Cube.from_cells(json.loads(row["cube"]))
            for name in TARGETS:
                stored = row[f"target_{name}"]
                if name == "rationale_receipt":  # the rationale line exists only in its column
                    line = stored.split("\n")[0].removeprefix("rationale: ")
                    written = TARGETS.get(name).serialize(cube, receipt_of(cube), line)
                else:  # not stored: serialized from the record's gold
                    written = gold_text(
                        name, {k: v for k, v in row.items() if k != f"target_{name}"}
                    )
                assert written == stored, (row["id"], name)
                checked += 1
    assert checked > 500
