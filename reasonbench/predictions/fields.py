"""The predicted fields of a prediction record, from what the frozen parser read."""

from __future__ import annotations

import json
from typing import Any

from reasonbench.core.sources import GNA, mask_members
from reasonbench.targets.parse import Parsed, ParseResult

__all__ = ["predicted_fields"]

UNPARSED = {
    "pred_old_verdict": None,
    "pred_new_verdict": None,
    "pred_receipt": None,
    "pred_cube": None,
    "verdict_source": "model",
}


def predicted_fields(result: ParseResult) -> dict[str, Any]:
    """``pred_*`` and ``verdict_source``; a parse failure nulls every predicted field."""
    if not isinstance(result, Parsed):
        return dict(UNPARSED)
    receipt = None
    if result.sets is not None:
        receipt = json.dumps([list(mask_members(m, GNA)) for m in result.sets])
    cube = None
    if result.cube is not None:
        cube = json.dumps(result.cube.cells(), separators=(",", ":"))
    return {
        "pred_old_verdict": result.old,
        "pred_new_verdict": result.new,
        "pred_receipt": receipt,
        "pred_cube": cube,
        "verdict_source": "derived_from_cube" if result.target == "cube" else "model",
    }
