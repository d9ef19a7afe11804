"""Hand-built scored examples for the statistics tests: gold cases and prediction records
without a benchmark on disk."""

from __future__ import annotations

import json

from reasonbench.analysis.gold import Gold
from reasonbench.analysis.scoring import Scored, score
from reasonbench.core import GNA, Answer, Cube, receipt_of
from reasonbench.predictions.answers import answer_record
from reasonbench.targets import ParseFailure

__all__ = ["CHANGED", "STABLE", "gold", "per_seed", "scored"]

CHANGED = (
    "deny",
    "approve",
    "deny",
    "approve",
    "deny",
    "approve",
    "deny",
    "approve",
)  # receipt {G}
STABLE = ("deny", "approve", "deny", "deny", "deny", "deny", "deny", "deny")


def gold(
    example_id: str,
    cells: tuple[str, ...] = CHANGED,
    *,
    split: str = "test_locked",
    unit: str = "u0",
    stratum: str = "organizational",
    control: str | None = None,
    parent: str | None = None,
) -> Gold:
    cube = Cube(GNA, cells)
    return Gold(example_id, split, unit, stratum, cube, receipt_of(cube), control, parent, None)


def scored(
    g: Gold,
    said: Answer | None,
    target: str = "direct_receipt",
    method: str = "m",
    seed: int = 0,
    confidence: float | None = None,
) -> Scored:
    """``said`` None: a parse failure."""
    record = answer_record(
        example_id=g.example_id,
        method=method,
        seed=seed,
        split=g.split,
        target=target,
        raw_output=json.dumps(str(said)),
        answer=ParseFailure(target, "test") if said is None else said,
        confidence=confidence,
        confidence_source=None if confidence is None else "seq_prob",
    )
    return score(g, record)


def per_seed(method: str, rights: list[list[bool]], units: int = 6) -> dict[int, list[Scored]]:
    """seed -> scored rows; rights[s][i]: example i right in seed s (examples over ``units``
    units, every third one stable, odd ones logical and even ones organizational)."""
    out = {}
    for s, row in enumerate(rights):
        rows = []
        for i, ok in enumerate(row):
            g = gold(f"e{i:03d}", CHANGED if i % 3 else STABLE, unit=f"u{i % units}",
                     stratum="logical" if i % 2 else "organizational")  # fmt: skip
            truth = Answer.of_receipt(g.receipt)
            said = (
                truth
                if ok
                else Answer(truth.old, truth.old if not g.receipt.stable else "approve", (7,))
            )
            rows.append(scored(g, said, method=method, seed=s))
        out[s] = rows
    return out
