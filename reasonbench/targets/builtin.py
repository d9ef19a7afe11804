"""The paper's four learning targets (spec §5), registered in the paper's order.

Each entry ties together the serialization (``serialize.py``), the frozen parser (``parse.py``),
the answer format a zero-shot judge is told (the parser reads exactly this format), the decoding
budget and what the answer carries. A new target is one more ``TARGETS.register`` call here or in
a user's module (docs/extending.md).
"""

from __future__ import annotations

import re

from reasonbench.core.sources import cell_key, full_mask
from reasonbench.targets import parse, serialize
from reasonbench.targets.base import TARGETS, Target

__all__ = ["CUBE", "DIRECT_RECEIPT", "DIRECT_VERDICT", "RATIONALE_RECEIPT"]

RECEIPT_FORMAT = """\
If the old and the revised verdict differ, the receipt lists every minimal set of revised parts \
that, swapped into the old version on their own, already give the revised verdict: join the \
parts of a set with "+" (e.g. G+N) and separate sets with " | "; write "none" if the verdict \
did not change."""


def _new_line(sources: tuple[str, ...]) -> str:
    return r"(?m)^\s*new: *(\S+)"


def _full_cell(sources: tuple[str, ...]) -> str:
    # the revised verdict of a cube answer is its all-sources cell, the last one written
    return re.escape(cell_key(full_mask(len(sources)), sources)) + r"=(\S+)"


DIRECT_VERDICT = TARGETS.register(
    "direct_verdict",
    Target(
        name="direct_verdict",
        serialize=lambda cube, receipt, rationale: serialize.direct_verdict(receipt),
        parse=parse.parse_direct_verdict,
        answer_format="Give the revised verdict. Answer with one line:\nverdict: <verdict>",
        lines=1,
        max_new_tokens=8,
        verdict_only=True,
        verdict_source="model",
        verdict_pattern=lambda sources: r"verdict: *(\S+)",
    ),
)
DIRECT_RECEIPT = TARGETS.register(
    "direct_receipt",
    Target(
        name="direct_receipt",
        serialize=lambda cube, receipt, rationale: serialize.direct_receipt(receipt),
        parse=parse.parse_direct_receipt,
        answer_format=f"Give the old and the revised verdict. {RECEIPT_FORMAT}\n"
        "Answer with exactly three lines:\nold: <verdict>\nnew: <verdict>\nreceipt: <sets or none>",
        lines=3,
        max_new_tokens=32,
        verdict_only=False,
        verdict_source="model",
        verdict_pattern=_new_line,
    ),
)
RATIONALE_RECEIPT = TARGETS.register(
    "rationale_receipt",
    Target(
        name="rationale_receipt",
        serialize=lambda cube, receipt, rationale: serialize.rationale_receipt(receipt, rationale),
        parse=parse.parse_rationale_receipt,
        answer_format=f"Give the old and the revised verdict. {RECEIPT_FORMAT}\n"
        "Answer with exactly four lines:\nrationale: <one sentence>\nold: <verdict>\n"
        "new: <verdict>\nreceipt: <sets or none>",
        lines=4,
        max_new_tokens=256,
        verdict_only=False,
        verdict_source="model",
        verdict_pattern=_new_line,
    ),
)
CUBE = TARGETS.register(
    "cube",
    Target(
        name="cube",
        serialize=lambda cube, receipt, rationale: serialize.cube_target(cube),
        parse=parse.parse_cube,
        answer_format="Give the verdict of every mix of old and revised parts (- means all old; G "
        "means the revised facts with the old rule and authority; and so on). Answer with one "
        "line:\ncube: -=<v> G=<v> N=<v> A=<v> G+N=<v> G+A=<v> N+A=<v> G+N+A=<v>",
        lines=1,
        max_new_tokens=64,
        verdict_only=False,
        verdict_source="derived_from_cube",
        verdict_pattern=_full_cell,
    ),
)
