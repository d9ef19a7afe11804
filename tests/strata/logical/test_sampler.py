"""World sampling: 800 units, deterministic per seed, independent of PYTHONHASHSEED, well shaped."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from reasonbench.core import GNA
from reasonbench.strata.logical import (
    N_WORLDS,
    LogicalStratum,
    World,
    WorldShape,
    closure,
    sample_world,
)

ROOT = Path(__file__).resolve().parents[3]


def digest(seed: int = 0, n_cases: int = 60) -> str:
    """Hash of the worlds, some sampled cases and their renderings (what must never vary)."""
    stratum = LogicalStratum()
    worlds = stratum.units(seed)
    blob = [stratum.state_to_json(w.state) for w in worlds]
    rng = random.Random(f"digest:{seed}")
    subsets = [("G",), ("N",), ("A",), ("G", "N"), ("G", "A"), ("N", "A"), GNA]
    for i in range(n_cases):
        case = stratum.sample_transition(worlds[i], rng, subsets[i % len(subsets)])
        if case is None:
            blob.append(None)
            continue
        distracted = stratum.add_distractor(case, rng)
        blob.append([case.operators, case.context, stratum.state_to_json(case.new)])
        blob.append(stratum.render(case, stratum.template_families[i % 3], ("A", "G", "N")).text)
        blob.append(stratum.trace(case.new, case.context))
        blob.append(distracted and stratum.state_to_json(distracted.old))
    return hashlib.sha256(json.dumps(blob, sort_keys=True).encode()).hexdigest()


def test_800_units_with_stable_ids(worlds: list[World]) -> None:
    assert len(worlds) == N_WORLDS == 800
    assert [w.unit_id for w in worlds[:3]] == ["logic-0000", "logic-0001", "logic-0002"]
    assert len({w.unit_id for w in worlds}) == 800


def test_same_seed_same_worlds_other_seed_other_worlds(
    stratum: LogicalStratum, worlds: list[World]
) -> None:
    assert stratum.units(0) == worlds
    other = stratum.units(1)
    assert sum(a.state != b.state for a, b in zip(worlds, other, strict=True)) > 790


def test_world_i_depends_only_on_seed_and_i(stratum: LogicalStratum, worlds: list[World]) -> None:
    world = sample_world(random.Random("0:logical:42"), stratum.vocabulary, "logic-0042")
    assert world == worlds[42]


def test_output_does_not_depend_on_pythonhashseed() -> None:
    script = "from tests.strata.logical.test_sampler import digest; print(digest())"
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(run.stdout.strip())
    outputs.add(digest())
    assert len(outputs) == 1


def test_worlds_have_the_documented_shape(worlds: list[World]) -> None:
    shape = WorldShape()
    for world in worlds:
        facts, rules = world.state["G"], world.state["N"]
        assert shape.facts[0] <= len(facts.atoms) <= shape.facts[1]
        assert shape.rules[0] <= len(rules.rules) <= shape.rules[1]
        assert shape.entities[0] <= len(world.entities) <= shape.entities[1]
        # Sinks are never premises, and at least one rule concludes a sink (for no-op edits).
        assert not any(p[0] in world.sinks for r in rules.rules for p in r.premises)
        assert any(not world.is_core(r) for r in rules.rules)
        assert not world.names() & {"X"}
        assert max(closure(facts, rules).depth.values()) >= shape.deep  # hosts deep cases


def test_every_seed_gives_800_distinct_worlds(stratum: LogicalStratum) -> None:
    # its speed (goal < 2 s) is measured by scripts/bench_logical_sampler.py, not asserted here
    worlds = stratum.units(7)
    assert len(worlds) == 800 and len({w.unit_id for w in worlds}) == 800
