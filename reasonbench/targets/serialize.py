"""One serialization per learning target (spec §5); the parsers in ``parse.py`` invert them.

All four targets share one input prompt and differ only here:

* ``direct_verdict``     ``verdict: approve``
* ``direct_receipt``     ``old: deny`` / ``new: approve`` / ``receipt: G | N+A`` (``none`` if stable)
* ``rationale_receipt``  ``rationale: ...`` then the ``direct_receipt`` lines
* ``cube``               ``cube: -=deny G=approve N=deny ... G+N+A=approve`` (fixed cell order;
  ``-`` names the empty cell); the receipt is derived from the cells, never written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, family_masks
from reasonbench.core.sources import cell_key, cell_order, mask_members

EMPTY_CELL = "-"
NO_RECEIPT = "none"
SET_SEPARATOR = " | "


def family_text(receipt: Receipt) -> str:
    if not receipt.sets:
        return NO_RECEIPT
    return SET_SEPARATOR.join("+".join(mask_members(m, receipt.sources)) for m in receipt.sets)


def direct_verdict(receipt: Receipt) -> str:
    return f"verdict: {receipt.new}"


def direct_receipt(receipt: Receipt) -> str:
    return f"old: {receipt.old}\nnew: {receipt.new}\nreceipt: {family_text(receipt)}"


def rationale_receipt(receipt: Receipt, rationale: str) -> str:
    # The rationale is one line so the parser can split it off without ambiguity.
    line = " ".join(rationale.split())
    return f"rationale: {line}\n{direct_receipt(receipt)}"


def cube_target(cube: Cube) -> str:
    cells = []
    for mask in cell_order(cube.k):
        cells.append(f"{cell_key(mask, cube.sources) or EMPTY_CELL}={cube[mask]}")
    return "cube: " + " ".join(cells)


def rationale_text(old_trace: Sequence[str], new_trace: Sequence[str], limit: int = 3) -> str:
    """A short rationale from the adjudicator's traces of the two endpoint states."""
    old = "; ".join(old_trace[:limit]) or "no condition fired"
    new = "; ".join(new_trace[:limit]) or "no condition fired"
    return f"before: {old}. after: {new}."


GOLD_COLUMNS = ("cube", "old_verdict", "new_verdict", "receipt", "target_rationale_receipt")
"""What a stored record needs to serialize any target's gold text."""


def gold_text(target: str, record: Mapping[str, Any]) -> str:
    """The gold ``target`` text of a stored benchmark record: its stored column when the build
    has one, else serialized from the record's gold cube, receipt and rationale — so a target
    registered after the benchmark was frozen trains on the frozen bytes (docs/extending.md)."""
    from reasonbench.targets.base import TARGETS

    stored = record.get(f"target_{target}")
    if stored is not None:
        return str(stored)
    cube = Cube.from_cells(json.loads(record["cube"]))
    family = json.loads(record["receipt"])
    receipt = Receipt(
        cube.sources,
        record["old_verdict"],
        record["new_verdict"],
        family_masks(family, cube.sources),
    )
    rationale = (
        str(record["target_rationale_receipt"]).split("\n", 1)[0].removeprefix("rationale: ")
    )
    return TARGETS.get(target).serialize(cube, receipt, rationale)


def all_targets(cube: Cube, receipt: Receipt, rationale: str) -> dict[str, str]:
    """The serialized targets of one example, keyed ``target_<name>`` (every registered target)."""
    from reasonbench.targets.base import TARGETS  # the registry imports this module's writers

    return {f"target_{n}": TARGETS.get(n).serialize(cube, receipt, rationale) for n in TARGETS}
