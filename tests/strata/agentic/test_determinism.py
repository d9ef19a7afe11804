"""Outputs do not depend on PYTHONHASHSEED (no set order or hash() leaks into generation)."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import hashlib, json, random
from itertools import combinations
from reasonbench.strata.agentic import AgenticStratum
s = AgenticStratum()
subsets = [c for r in (1, 2, 3) for c in combinations("GNA", r)]
digest = hashlib.sha256()
for unit in s.units(7)[::16]:
    rng = random.Random(unit.unit_id)
    for k in range(6):
        t = s.sample_transition(unit, rng, rng.choice(subsets), aim="ambiguous" if k == 5 else None)
        t = s.add_distractor(t, rng) or t
        q = s.quarantine_control(t, rng) or t
        for u in (t, q):
            digest.update(json.dumps([s.state_to_json(u.old), s.state_to_json(u.new), u.operators]).encode())
        digest.update(s.render(t, "ledger", ("A", "G", "N")).text.encode())
        digest.update("|".join(s.trace(t.new, t.context)).encode())
print(digest.hexdigest())
"""


def run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_independent_of_hash_seed() -> None:
    assert run("0") == run("4242")
