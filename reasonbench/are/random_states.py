"""Random reflective states ("random typed dialectical graphs") for property tests and benchmarks.

A state has the four claim kinds, a few non-negotiables, prohibitions and consequential actions,
and about ``density`` relations per claim with rubric strengths and random channels, mirroring
the paper's solver benchmark (random graphs with 3n relations). Everything comes from ``rng``.
"""

from __future__ import annotations

import random

from reasonbench.are.model import CHANNELS, TYPES, Claim, ReflectiveState, Relation

RUBRIC_VALUES = (0.5, 1.0, 1.5, 2.0, 4.0)
STUBBORNNESS = (0.2, 0.3, 0.5, 1.0, 1.5, 2.0)


def random_state(
    rng: random.Random,
    n: int,
    density: float = 3.0,
    actions: int | None = None,
    fixed: int | None = None,
    prohibitions: int | None = None,
) -> ReflectiveState:
    """A valid random state with ``n >= 2`` claims (counts default to a share of ``n``)."""
    if n < 2:
        raise ValueError("a random state needs at least two claims")
    n_actions = max(1, n // 4) if actions is None else actions
    kinds = ["A"] * n_actions + [rng.choice("PJB") for _ in range(n - n_actions)]
    rng.shuffle(kinds)
    claims = []
    for i, kind in enumerate(kinds):
        anchor = round(rng.uniform(-1, 1), 2) if rng.random() < 0.85 else 0.0
        claims.append(
            Claim(
                f"c{i}",
                kind,
                rng.choice(CHANNELS),
                anchor,
                rng.choice(STUBBORNNESS),
                rng.choice((0.0, 0.0, 0.1)) if kind == "P" else 0.0,
                instructed=rng.choice(("user", None, None)) if kind == "A" else None,
            )
        )
    ids = [c.id for c in claims]
    acts = [c.id for c in claims if c.kind == "A"]
    relations = []
    for _ in range(round(density * n)):
        u, v = rng.sample(ids, 2)
        relations.append(
            Relation(u, v, rng.choice(TYPES), rng.choice(RUBRIC_VALUES), rng.choice(CHANNELS))
        )
    n_fixed = max(0, n // 8) if fixed is None else fixed
    chosen = rng.sample(ids, min(n_fixed, n))
    # Actions may only be prescribed as not taken (model.check_state keeps X(G) non-empty).
    statuses = tuple((u, -1 if u in acts else rng.choice((1, 1, -1))) for u in chosen)
    n_banned = max(0, n // 10) if prohibitions is None else prohibitions
    banned = set()
    for _ in range(n_banned):
        h = rng.choice(ids)
        a = rng.choice(acts)
        if h != a:
            banned.add((h, a))
    consequential = tuple(a for a in acts if rng.random() < 0.8) or (acts[0],)
    return ReflectiveState(
        tuple(claims), tuple(relations), statuses, tuple(sorted(banned)), consequential
    )
