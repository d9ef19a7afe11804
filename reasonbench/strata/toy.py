"""The smallest stratum that satisfies the contract (docs/extending.md, "A new stratum"): a
starting point for a new stratum, shipped so a plug-in needs nothing outside the package, and
the stratum the tests build toy benchmarks with (assembly apart from the real strata). Not
registered: a plug-in registers it (tests/plugin_toys/src/rb_toys/stratum.py).

Grounds: (amount, region, noise); norms: (limit, exempt_region); authority: allowed regions.
refer when the region is not allowed; approve when amount <= limit or the region is exempt.
Proof depth (when ``with_depth``) is a deterministic toy function of the grounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.core import EvaluatorState
from reasonbench.strata.base import Operator, Rendering, Transition

REGIONS = ("eu", "us", "apac")


@dataclass(frozen=True)
class Unit:
    unit_id: str
    base_limit: int


class ToyAdjudicator:
    labels = frozenset({"approve", "deny", "refer"})

    def adjudicate(self, state: EvaluatorState[Any]) -> str:
        (amount, region, _noise), (limit, exempt), allowed = state.components
        if region not in allowed:
            return "refer"
        return "approve" if amount <= limit or region == exempt else "deny"


def _g_amount(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    amount, region, noise = state["G"]
    return (rng.randint(0, 100), region, noise)


def _g_region(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    amount, region, noise = state["G"]
    return (amount, rng.choice([r for r in REGIONS if r != region]), noise)


def _g_noise(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    amount, region, noise = state["G"]
    return (amount, region, noise + 1)


def _n_limit(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    limit, exempt = state["N"]
    return (rng.randint(0, 100), exempt)


def _n_exempt(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    limit, exempt = state["N"]
    return (limit, rng.choice([r for r in (*REGIONS, "none") if r != exempt]))


def _a_toggle(unit: Unit, state: EvaluatorState[Any], rng: random.Random) -> Any:
    allowed = set(state["A"])
    allowed ^= {rng.choice(REGIONS)}
    return tuple(sorted(allowed))


OPERATORS = {
    op.name: op
    for op in (
        Operator("g_amount", "G", _g_amount),
        Operator("g_region", "G", _g_region),
        Operator("g_noise", "G", _g_noise, noop=True),
        Operator("n_limit", "N", _n_limit),
        Operator("n_exempt", "N", _n_exempt),
        Operator("a_toggle", "A", _a_toggle),
    )
}


class ToyStratum:
    labels = frozenset({"approve", "deny", "refer"})
    template_families = ("plain", "terse", "held")
    operators = OPERATORS

    def __init__(
        self, name: str = "organizational", n_units: int = 40, with_depth: bool = False
    ) -> None:
        self.name = name
        self.n_units = n_units
        self.with_depth = with_depth

    def units(self, seed: int) -> Sequence[Unit]:
        rng = random.Random(f"{seed}:{self.name}")
        return [Unit(f"{self.name[:3]}-{i:03d}", rng.randint(20, 80)) for i in range(self.n_units)]

    def adjudicator(self, context: Mapping[str, Any]) -> ToyAdjudicator:
        return ToyAdjudicator()

    def sample_transition(
        self,
        unit: Unit,
        rng: random.Random,
        sources: tuple[str, ...],
        operators: Sequence[str] | None = None,
        *,
        aim: str | None = None,
        min_depth: int | None = None,
        max_depth: int | None = None,
    ) -> Transition | None:
        old: EvaluatorState[Any] = EvaluatorState.of(
            G=(rng.randint(0, 100), rng.choice(REGIONS), 0),
            N=(unit.base_limit, rng.choice((*REGIONS, "none"))),
            A=tuple(sorted(rng.sample(REGIONS, rng.randint(1, 3)))),
        )
        new, applied = old, []
        for source in ("G", "N", "A"):
            if source not in sources:
                continue
            names = [n for n in sorted(OPERATORS) if OPERATORS[n].source == source]
            if operators is not None:
                names = [n for n in names if n in operators]
            if not names:
                return None
            op = OPERATORS[names[rng.randrange(len(names))]]
            new = new.replace(**{source: op.apply(unit, new, rng)})
            applied.append(op.name)
        if any(
            o == n
            for o, n, s in zip(old.components, new.components, "GNA", strict=True)
            if s in sources
        ):
            return None
        return Transition(unit.unit_id, old, new, tuple(applied), {"unit": unit.unit_id})

    def state_to_json(self, state: EvaluatorState[Any]) -> dict[str, Any]:
        return {s: list(v) if isinstance(v, tuple) else v for s, v in state.as_dict().items()}

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]:
        return EvaluatorState.of(G=tuple(data["G"]), N=tuple(data["N"]), A=tuple(data["A"]))

    def render(
        self, transition: Transition, template_family: str, source_order: tuple[str, ...]
    ) -> Rendering:
        parts = [f"[{template_family}] {transition.unit_id}"]
        for s in source_order:
            parts.append(f"{s}: {transition.old[s]} -> {transition.new[s]}")
        return Rendering("\n".join(parts), template_family, source_order)

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        def with_noise(state: EvaluatorState[Any]) -> EvaluatorState[Any]:
            amount, region, noise = state["G"]
            return state.replace(G=(amount, region, noise + 100))

        return Transition(
            transition.unit_id,
            with_noise(transition.old),
            with_noise(transition.new),
            transition.operators,
            transition.context,
        )

    def proof_depth(self, transition: Transition) -> int | None:
        if not self.with_depth:
            return None
        return int(transition.old["G"][0] + transition.new["G"][0]) % 7

    def trace(self, state: EvaluatorState[Any], context: Mapping[str, Any]) -> list[str]:
        return [f"verdict {ToyAdjudicator().adjudicate(state)}"]
