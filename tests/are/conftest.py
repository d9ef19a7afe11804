"""Shared strategies for the ARE property tests: random reflective states from a seed."""

from __future__ import annotations

import itertools
import random

import numpy as np
from hypothesis import strategies as st

from reasonbench.are import ReflectiveState, random_state
from reasonbench.are.compilation import Vector


@st.composite
def states(draw: st.DrawFn, low: int = 2, high: int = 9) -> ReflectiveState:
    """A random valid state with ``low..high`` claims (relations, H, F, Ac included)."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(low, high))
    density = draw(st.sampled_from((0.5, 1.5, 3.0)))
    return random_state(random.Random(seed), n, density=density)


def positions(n: int) -> list[Vector]:
    return [np.array(bits, dtype=float) for bits in itertools.product((-1.0, 1.0), repeat=n)]
