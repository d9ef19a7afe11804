"""Label audit: re-execute every stored gold cube from its JSON states and re-parse its targets."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from reasonbench.core.answer import Answer
from reasonbench.core.cube import execute_cube
from reasonbench.core.receipt import receipt_of
from reasonbench.core.sources import mask_members
from reasonbench.core.state import EvaluatorState, changed_sources
from reasonbench.strata.base import Stratum
from reasonbench.targets import TARGETS, get_target, parse_target

_STRATA: dict[str, Stratum] = {}


def install(strata: Mapping[str, Stratum]) -> None:
    _STRATA.clear()
    _STRATA.update(strata)
    _state.cache_clear()


@lru_cache(maxsize=8192)
def _state(stratum: str, text: str) -> EvaluatorState[Any]:
    """Parse a stored state once: every case of a logical world shares its old state, and
    validating the JSON dominates the audit's cost. The key is the exact stored text."""
    return _STRATA[stratum].state_from_json(json.loads(text))


def label_errors(record: Mapping[str, Any]) -> list[str]:
    """Every disagreement between a record's stored labels and fresh execution (empty = clean)."""
    stratum = _STRATA[record["stratum"]]
    old = _state(record["stratum"], record["old_state"])
    new = _state(record["stratum"], record["new_state"])
    context = json.loads(record["context"])
    cube = execute_cube(stratum.adjudicator(context), old, new)
    receipt = receipt_of(cube)
    expected = {
        "cube": json.dumps(cube.cells(), separators=(",", ":")),
        "old_verdict": receipt.old,
        "new_verdict": receipt.new,
        "changed": not receipt.stable,
        "receipt": json.dumps(receipt.family(), separators=(",", ":")),
        "min_receipt_size": receipt.min_size,
        "ambiguous": receipt.ambiguous,
        "sources_changed": json.dumps(
            list(mask_members(changed_sources(old, new), cube.sources)), separators=(",", ":")
        ),
    }
    errors = [
        f"{record['id']}: {field} stored {record[field]!r}, execution gives {value!r}"
        for field, value in expected.items()
        if record[field] != value
    ]
    for target in (t for t in TARGETS if f"target_{t}" in record):  # the build's own targets
        parsed = parse_target(target, record[f"target_{target}"], stratum.labels, cube.sources)
        if not isinstance(parsed, Answer):
            errors.append(f"{record['id']}: target_{target} does not parse ({parsed.reason})")
            continue
        verdict_only = get_target(target).verdict_only
        wanted_old = None if verdict_only else receipt.old
        wanted_sets = None if verdict_only else receipt.sets
        if (parsed.old, parsed.new, parsed.sets) != (wanted_old, receipt.new, wanted_sets):
            errors.append(f"{record['id']}: target_{target} parses to other labels than gold")
    return errors
