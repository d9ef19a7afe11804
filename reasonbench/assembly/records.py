"""One benchmark record per case: structured states, prompt, gold cube/receipt and targets.

Nested values (states, cube, receipt, lists) are stored as canonical JSON text (sorted keys, no
spaces) so Parquet files are byte-stable and every engine can read them back.
"""

from __future__ import annotations

import json
from typing import Any

from reasonbench.assembly.sampling import Traces, traces_of
from reasonbench.core.canonical import canonical_json
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.core.sources import mask_members
from reasonbench.core.state import changed_sources
from reasonbench.strata.base import Stratum, Transition, state_text
from reasonbench.targets.serialize import all_targets, rationale_text

COLUMNS: tuple[str, ...] = (
    "id",
    "unit_id",
    "stratum",
    "split",
    "old_state",
    "new_state",
    "context",
    "prompt",
    "cube",
    "old_verdict",
    "new_verdict",
    "changed",
    "receipt",
    "min_receipt_size",
    "ambiguous",
    "sources_changed",
    "operators",
    "template_family",
    "source_order",
    "proof_depth",
    "control",
    "parent_id",
    "target_direct_verdict",
    "target_direct_receipt",
    "target_rationale_receipt",
    "target_cube",
)


def make_record(
    stratum: Stratum,
    transition: Transition,
    cube: Cube,
    receipt: Receipt,
    *,
    record_id: str,
    split: str,
    family: str,
    order: tuple[str, ...],
    depth: int | None,
    control: str | None = None,
    parent_id: str | None = None,
    traces: Traces | None = None,
) -> dict[str, Any]:
    """The record of one case; ``traces`` are ``stratum.trace`` of its old and new state when the
    caller already has them (see :class:`reasonbench.assembly.sampling.Candidate`)."""
    rendering = stratum.render(transition, family, order)
    old_trace, new_trace = traces_of(stratum, transition) if traces is None else traces
    record: dict[str, Any] = {
        "id": record_id,
        "unit_id": transition.unit_id,
        "stratum": stratum.name,
        "split": split,
        "old_state": state_text(stratum, transition.old),
        "new_state": state_text(stratum, transition.new),
        "context": canonical_json(dict(transition.context)),
        "prompt": rendering.text,
        # cells keep the documented cell order (not sorted keys): the order is part of the format
        "cube": json.dumps(cube.cells(), separators=(",", ":")),
        "old_verdict": receipt.old,
        "new_verdict": receipt.new,
        "changed": not receipt.stable,
        "receipt": canonical_json(receipt.family()),
        "min_receipt_size": receipt.min_size,
        "ambiguous": receipt.ambiguous,
        "sources_changed": canonical_json(
            list(mask_members(changed_sources(transition.old, transition.new), cube.sources))
        ),
        "operators": canonical_json(list(transition.operators)),
        "template_family": rendering.template_family,
        "source_order": canonical_json(list(rendering.source_order)),
        "proof_depth": depth,
        "control": control,
        "parent_id": parent_id,
    }
    record.update(all_targets(cube, receipt, rationale_text(old_trace, new_trace)))
    return record
