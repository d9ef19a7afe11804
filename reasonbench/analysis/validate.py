"""What ``reasonbench analyze`` refuses in a prediction record, beyond the record's own schema.

Checked per record against the gold of its example (the loader adds the file and line):

* a verdict (old, revised, or any cube cell) outside the stratum's label set;
* a ``pred_cube`` that is not a JSON object with exactly the 2^k cells of the example's sources;
* a ``pred_receipt`` that is not a JSON list of source-name lists over those sources;
* ``parse_ok: true`` with every prediction field null, or ``parse_ok: false`` with a field set;
* a field the record's target does not carry (a ``direct_verdict`` record with a receipt).

Per method, every record must declare the same target. The label set of a stratum is the
registered stratum's labels plus every verdict its gold uses (a benchmark built by a custom or
test stratum), so a valid but wrong verdict is scored, and only a non-label is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from reasonbench.analysis.gold import Gold
from reasonbench.analysis.scoring import carried, cube_cells, receipt_masks
from reasonbench.predictions.io import PredictionFileError
from reasonbench.predictions.record import PredictionRecord
from reasonbench.strata.registry import STRATA, load_stratum

__all__ = ["check_targets", "label_sets", "record_checker"]

FIELDS = ("pred_old_verdict", "pred_new_verdict", "pred_receipt", "pred_cube")


@cache
def _registered_labels(stratum: str) -> frozenset[str]:
    if stratum not in STRATA:
        return frozenset()
    declared = getattr(STRATA.get(stratum), "labels", None)  # a class attribute: no data loaded
    return declared if isinstance(declared, frozenset) else load_stratum(stratum).labels


def label_sets(gold: Mapping[str, Gold]) -> dict[str, frozenset[str]]:
    """stratum -> the verdicts a prediction for one of its examples may use."""
    seen: dict[str, set[str]] = {}
    for g in gold.values():
        seen.setdefault(g.stratum, set()).update(g.cube.verdicts)
    return {s: _registered_labels(s) | frozenset(v) for s, v in sorted(seen.items())}


def _verdict(value: str | None, labels: frozenset[str], name: str, stratum: str) -> str | None:
    if value is not None and value not in labels:
        return f"{name} {value[:40]!r} is not a verdict of the {stratum} stratum"
    return None


def _problem(record: PredictionRecord, gold: Gold, labels: frozenset[str]) -> str | None:
    values = {name: getattr(record, name) for name in FIELDS}
    if record.parse_ok and all(v is None for v in values.values()):
        return "parse_ok is true but every prediction field is null"
    if not record.parse_ok:
        set_fields = [n for n, v in values.items() if v is not None]
        return f"parse_ok is false but {', '.join(set_fields)} is set" if set_fields else None
    fields = carried(record.target)
    for name, has in zip(FIELDS, (fields.old, fields.new, fields.sets, fields.cube), strict=True):
        if values[name] is not None and not has:
            return (
                f"target {record.target} carries no {name.removeprefix('pred_')}, but {name} is set"
            )
    for name in ("pred_old_verdict", "pred_new_verdict"):
        problem = _verdict(values[name], labels, name, gold.stratum)
        if problem:
            return problem
    sources = gold.cube.sources
    if record.pred_receipt is not None:
        try:
            receipt_masks(record.pred_receipt, sources)
        except (ValueError, TypeError) as exc:
            return f"pred_receipt {exc}"
    if record.pred_cube is not None:
        try:
            cube = cube_cells(record.pred_cube, sources)
        except ValueError as exc:
            return f"pred_cube needs exactly the {1 << len(sources)} cells of {'+'.join(sources)}: {exc}"
        for verdict in dict.fromkeys(cube.verdicts):
            problem = _verdict(verdict, labels, "pred_cube cell", gold.stratum)
            if problem:
                return problem
    return None


def record_checker(
    gold: Mapping[str, Gold], labels: Mapping[str, frozenset[str]]
) -> Callable[[PredictionRecord], str | None]:
    """The per-record check ``load_predictions`` runs (unknown ids are the loader's to report)."""

    def check(record: PredictionRecord) -> str | None:
        g = gold.get(record.example_id)
        return None if g is None else _problem(record, g, labels[g.stratum])

    return check


def check_targets(by_method: Mapping[str, Sequence[PredictionRecord]]) -> dict[str, str]:
    """method -> its one target; refuses a method whose records declare several."""
    out = {}
    for method, records in sorted(by_method.items()):
        targets = sorted({r.target for r in records})
        if len(targets) != 1:
            raise PredictionFileError(
                f"method {method}: records declare targets {targets}; one method answers in one target"
            )
        out[method] = targets[0]
    return out
