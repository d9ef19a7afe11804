"""One serialization per learning target (spec §5); the parsers in ``parse.py`` invert them.

All four targets share one input prompt and differ only here:

* ``direct_verdict``     ``verdict: approve``
* ``direct_receipt``     ``old: deny`` / ``new: approve`` / ``receipt: G | N+A`` (``none`` if stable)
* ``rationale_receipt``  ``rationale: ...`` then the ``direct_receipt`` lines
* ``cube``               ``cube: -=deny G=approve N=deny ... G+N+A=approve`` (fixed cell order;
  ``-`` names the empty cell); the receipt is derived from the cells, never written.
"""

from __future__ import annotations

from collections.abc import Sequence

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
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


def all_targets(cube: Cube, receipt: Receipt, rationale: str) -> dict[str, str]:
    """The serialized targets of one example, keyed ``target_<name>`` (every registered target)."""
    from reasonbench.targets.base import TARGETS  # the registry imports this module's writers

    return {f"target_{n}": TARGETS.get(n).serialize(cube, receipt, rationale) for n in TARGETS}
