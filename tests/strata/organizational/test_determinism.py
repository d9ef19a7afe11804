"""Outputs do not depend on PYTHONHASHSEED (no set order or hash() leaks into generation)."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import hashlib, json, random
from itertools import combinations
from reasonbench.strata.organizational import OrganizationalStratum
s = OrganizationalStratum()
subsets = [c for r in (1, 2, 3) for c in combinations("GNA", r)]
digest = hashlib.sha256()
for clause in s.units(0)[::4]:
    rng = random.Random(clause.unit_id)
    for _ in range(15):
        t = s.sample_transition(clause, rng, rng.choice(subsets))
        t = s.add_distractor(t, rng) or t
        digest.update(json.dumps([s.state_to_json(t.old), s.state_to_json(t.new), t.operators]).encode())
        digest.update(s.render(t, "handbook", ("A", "G", "N")).text.encode())
        digest.update("|".join(s.trace(t.new, {})).encode())
    for sources in subsets[3:]:  # the aim hint, too
        t = s.sample_transition(clause, rng, sources, aim="ambiguous")
        digest.update(json.dumps([s.state_to_json(t.old), s.state_to_json(t.new), t.operators]).encode())
print(digest.hexdigest())
"""


def run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_independent_of_hash_seed() -> None:
    assert run("0") == run("12345") == run("987")
