"""A stored record is its own source: rendering its stored states (parsed back from JSON) in its
stored family and source order reproduces its prompt byte for byte, for every split and control.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from reasonbench.strata.base import Transition
from reasonbench.strata.registry import load_strata


def test_every_stored_prompt_rerenders_from_its_stored_states(small_bench: Path) -> None:
    strata = load_strata(["organizational", "logical"])
    checked = 0
    for path in sorted(small_bench.glob("*.parquet")):
        for row in pq.read_table(path).to_pylist():
            stratum = strata[row["stratum"]]
            transition = Transition(
                row["unit_id"],
                stratum.state_from_json(json.loads(row["old_state"])),
                stratum.state_from_json(json.loads(row["new_state"])),
                tuple(json.loads(row["operators"])),
                json.loads(row["context"]),
            )
            order = tuple(json.loads(row["source_order"]))
            again = stratum.render(transition, row["template_family"], order).text
            assert again == row["prompt"], row["id"]
            checked += 1
    assert checked == 490 + 240  # every main case and every control of benchmark=small
