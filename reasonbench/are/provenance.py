"""The provenance-based construction (Definition 5): the harness, not the model, sets authority.

From claim, relation and action specs plus the harness's :class:`Profile`, :func:`construct`
builds the numeric :class:`ReflectiveState`:

* every claim gets kappa = kappa_bar(its channel); a judgment whose anchor a tool computed (a
  *finding*) gets that anchor with kappa_bar(evidence);
* a directly instructed action is anchored at +1 with the instructing channel's kappa_bar times
  that channel's instruction authority, and belongs to that channel; any other action belongs to
  ``agent``, with anchor -footprint and the action stubbornness kappa_A;
* a relation's weight is min(eta_u * eta_v * rubric strength, omega(its channel)); a relation
  touching an untrusted claim is asserted by ``untrusted`` whatever the data say;
* every untrusted claim is attacked by the operator's "data are not commands" claim (if present)
  with the profile's defence strength, uncapped.

**Hybrid compatibility.** Claims come from several sources of an evaluator state, so a relation
is kept only when both endpoints and every claim it is ``given`` are present; an action only
when every claim it ``requires`` is present; H, F and findings entries on absent claims are
dropped. A hybrid of two states is therefore always a well-formed state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from reasonbench.are.layout import layout
from reasonbench.are.model import CHANNELS, ReflectiveState
from reasonbench.are.specs import STRENGTHS, ActionSpec, ClaimSpec, RelationSpec
from reasonbench.are.validate import (
    choice,
    finite_or_null,
    ident,
    limit,
    need,
    number,
    record,
)


@dataclass(frozen=True)
class Profile:
    """kappa_bar per channel, caps omega, kappa_A, instructions and their authority, defence."""

    stubbornness: tuple[tuple[str, float], ...]  # every channel, in CHANNELS order
    caps: tuple[tuple[str, float], ...] = (("untrusted", 0.25),)  # finite caps only
    action_stubbornness: float = 0.2
    instructions: tuple[tuple[str, str], ...] = ()  # (action, instructing channel), sorted
    authority: tuple[tuple[str, float], ...] = ()  # instruction-authority multipliers (default 1)
    defence: str = "strong"

    def __post_init__(self) -> None:
        where = "profile"
        need(
            [c for c, _ in self.stubbornness] == list(CHANNELS), where, f"kappa_bar for {CHANNELS}"
        )
        for c, k in self.stubbornness:
            number(k, f"{where}.stubbornness.{c}", 0.0)
        for c, w in self.caps:
            choice(c, f"{where}.caps", CHANNELS)
            need(w > 0, f"{where}.caps.{c}", "cap must be > 0")
        number(self.action_stubbornness, f"{where}.action_stubbornness", 0.0)
        for a, c in self.instructions:
            ident(a, f"{where}.instructions")
            choice(c, f"{where}.instructions.{a}", CHANNELS)
        for c, m in self.authority:
            choice(c, f"{where}.authority", CHANNELS)
            number(m, f"{where}.authority.{c}", 0.0)
        choice(self.defence, f"{where}.defence", STRENGTHS)
        for name in ("caps", "instructions", "authority"):
            keys = [k for k, _ in getattr(self, name)]
            need(keys == sorted(set(keys)), f"{where}.{name}", "keys must be sorted and unique")

    @cached_property
    def _tables(self) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
        """kappa_bar, caps and authority as mappings, built once (an adjudicator reads them for
        every node of every state)."""
        return dict(self.stubbornness), dict(self.caps), dict(self.authority)

    def kappa(self, channel: str) -> float:
        return self._tables[0][channel]

    def cap(self, channel: str) -> float:
        return self._tables[1].get(channel, math.inf)

    def instruction_kappa(self, channel: str) -> float:
        return self._tables[0][channel] * self._tables[2].get(channel, 1.0)

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(
                (
                    self.stubbornness,
                    self.caps,
                    self.action_stubbornness,
                    self.instructions,
                    self.authority,
                    self.defence,
                )
            )
            object.__setattr__(self, "_hash", h)
        return int(h)

    def to_json(self) -> dict[str, Any]:
        return {
            "stubbornness": dict(self.stubbornness),
            "caps": {c: finite_or_null(w) for c, w in self.caps},
            "action_stubbornness": self.action_stubbornness,
            "instructions": dict(self.instructions),
            "authority": dict(self.authority),
            "defence": self.defence,
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "profile") -> Profile:
        keys = ("stubbornness", "caps", "action_stubbornness", "instructions", "authority")
        raw = record(data, where, (*keys, "defence"), ("stubbornness",))
        kappa = record(raw["stubbornness"], f"{where}.stubbornness", CHANNELS, CHANNELS)
        caps = record(raw.get("caps") or {}, f"{where}.caps", CHANNELS)
        instructions = raw.get("instructions") or {}
        need(isinstance(instructions, dict), f"{where}.instructions", "expected a mapping")
        authority = record(raw.get("authority") or {}, f"{where}.authority", CHANNELS)
        return cls(
            tuple((c, number(kappa[c], f"{where}.stubbornness.{c}", 0.0)) for c in CHANNELS),
            tuple(
                (c, w)
                for c, w in sorted((c, limit(v, f"{where}.caps.{c}")) for c, v in caps.items())
                if not math.isinf(w)
            ),
            number(raw.get("action_stubbornness", 0.2), f"{where}.action_stubbornness", 0.0),
            tuple(sorted((str(a), str(c)) for a, c in instructions.items())),
            tuple(
                sorted((c, number(m, f"{where}.authority.{c}", 0.0)) for c, m in authority.items())
            ),
            str(raw.get("defence", "strong")),
        )


PAPER_PROFILE = Profile(
    (("operator", 1.5), ("evidence", 2.0), ("user", 1.0), ("agent", 0.5), ("untrusted", 0.3))
)
"""The authors' values: kappa_bar evidence 2 > operator 1.5 > user 1 > agent 0.5 > untrusted 0.3,
kappa_A = 0.2, omega(untrusted) = 0.25, strong defensive attacks."""


def construct(
    *,
    claims: Iterable[ClaimSpec],
    relations: Iterable[RelationSpec],
    actions: Iterable[ActionSpec],
    profile: Profile,
    findings: Mapping[str, float] | None = None,
    priorities: Mapping[str, float] | None = None,
    fixed: Mapping[str, int] | None = None,
    prohibitions: Iterable[tuple[str, str]] = (),
    defence: str | None = None,
) -> ReflectiveState:
    """The numeric state (see the module docstring); claims keep the order given, then actions.

    Written once, in two stages (:mod:`.layout`): what is present, then the profile's numbers."""
    found = layout(
        claims=claims,
        relations=relations,
        actions=actions,
        findings=findings,
        priorities=priorities,
        fixed=fixed,
        prohibitions=prohibitions,
        defence=defence,
    )
    return found.numbers(profile).state()
