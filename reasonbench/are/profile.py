"""The harness's authority profile (Definition 5): the numbers the harness, not the model, sets.

A :class:`Profile` holds kappa_bar per channel, the caps omega, the action stubbornness kappa_A,
which channel instructed which action and with what authority, and the defence strength of the
operator's "data are not commands" claim. The provenance construction
(:func:`reasonbench.are.provenance.construct`, in two stages in :mod:`reasonbench.are.layout`)
reads it; case families and the agentic stratum's authority component carry one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from reasonbench.are.model import CHANNELS
from reasonbench.are.specs import STRENGTHS
from reasonbench.are.validate import (
    choice,
    finite_or_null,
    ident,
    limit,
    need,
    number,
    record,
)

__all__ = ["PAPER_PROFILE", "Profile"]


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
