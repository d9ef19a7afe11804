"""Permutation augmentation: a training example re-rendered with its sources in another order.

The stratum re-renders the stored old and revised states. The target is unchanged: receipts and
cube cells name sources, not positions, so a permuted presentation has the same gold output (the
permutation controls rely on the same fact). Every re-rendering is checked first: rendering the
stored states in the stored order must reproduce the stored prompt byte for byte, otherwise the
augmentation would teach prompts the benchmark never shows.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from itertools import permutations
from typing import Any

from reasonbench.strata.base import Stratum, Transition


class AugmentError(RuntimeError):
    """A stored example that cannot be re-rendered faithfully; names the example."""


def transition_of(stratum: Stratum, row: Mapping[str, Any]) -> Transition:
    return Transition(
        str(row["unit_id"]),
        stratum.state_from_json(json.loads(row["old_state"])),
        stratum.state_from_json(json.loads(row["new_state"])),
        tuple(json.loads(row["operators"])),
        json.loads(row["context"]),
    )


def permuted_prompt(stratum: Stratum, row: Mapping[str, Any], rng: random.Random) -> str:
    """The example's prompt with its sources presented in a random other order."""
    transition = transition_of(stratum, row)
    stored = tuple(json.loads(row["source_order"]))
    again = stratum.render(transition, row["template_family"], stored)
    if again.text != row["prompt"]:
        raise AugmentError(
            f"{row['id']}: re-rendering the stored states does not reproduce the stored prompt; "
            "refusing to augment with a rendering the benchmark never shows"
        )
    others = [p for p in permutations(stored) if p != stored]
    order = others[rng.randrange(len(others))]
    return stratum.render(transition, row["template_family"], order).text
