"""A paired-control kind (docs/extending.md, "A new paired-control kind"): ``echo``, the same
case with its sources in reverse order; its gold must be identical."""

import random

from reasonbench.controls import CONTROL_KINDS, BuiltControl, ControlKind, identical
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.strata.base import Stratum, Transition


def build_echo(
    stratum: Stratum, transition: Transition, cube: Cube, receipt: Receipt,
    order: tuple[str, ...], rng: random.Random, parent_id: str,
) -> BuiltControl:  # fmt: skip
    return BuiltControl(transition, cube, receipt, tuple(reversed(order)))


CONTROL_KINDS.register(
    "echo", ControlKind("echo", "echo", "echo", build_echo, identical, description="toy")
)
