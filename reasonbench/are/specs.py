"""What the model elicits and the harness configures, before numbers are set: typed, validated
records that round-trip through JSON (and are read from the case-family YAML the same way).

* :class:`ClaimSpec` — a principle, judgment or background claim with its channel and anchor;
* :class:`RelationSpec` — a typed relation with a rubric *strength* (not yet a weight), the
  channel that asserts it and, optionally, the claims whose presence it is ``given``;
* :class:`ActionSpec` — a candidate action of the task: footprint, whether it is consequential,
  and the claims that must be present for it to be available (a remedy a tool revealed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reasonbench.are.model import CHANNELS, TYPES
from reasonbench.are.validate import choice, ident, items, need, number, record, text

RUBRIC: dict[str, float] = {
    "weak": 0.5,
    "moderate": 1.0,
    "strong": 1.5,
    "decisive": 2.0,
    "prohibitive": 4.0,
}
"""The strength rubric of Definition 5 (prohibitive: operator "never" rules, exclusive options)."""

STRENGTHS = tuple(RUBRIC)


def _cached_hash(obj: Any) -> int:
    """A spec's hash, computed once: components and task tuples holding specs are cache keys
    of the adjudicator, hashed on every lookup."""
    h = obj.__dict__.get("_hash")
    if h is None:
        h = hash(tuple(getattr(obj, f) for f in obj.__dataclass_fields__))
        object.__setattr__(obj, "_hash", h)
    return int(h)


@dataclass(frozen=True)
class ClaimSpec:
    id: str
    kind: str  # P, J or B (actions are ActionSpec)
    channel: str
    text: str
    anchor: float = 0.0
    systematicity: float = 0.0

    def __hash__(self) -> int:
        return _cached_hash(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "channel": self.channel,
            "text": self.text,
            "anchor": self.anchor,
            "systematicity": self.systematicity,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> ClaimSpec:
        raw = record(data, where, cls.__dataclass_fields__, ("id", "kind", "channel", "text"))
        claim_id = ident(raw["id"], f"{where}.id")
        where = f"{where} ({claim_id})"
        return cls(
            claim_id,
            choice(raw["kind"], f"{where}.kind", ("P", "J", "B")),
            choice(raw["channel"], f"{where}.channel", CHANNELS),
            text(raw["text"], f"{where}.text"),
            number(raw.get("anchor", 0.0), f"{where}.anchor", -1.0, 1.0),
            number(raw.get("systematicity", 0.0), f"{where}.systematicity", 0.0),
        )


@dataclass(frozen=True)
class RelationSpec:
    source: str
    target: str
    type: str
    strength: str
    channel: str
    given: tuple[str, ...] = ()
    why: str = ""

    def __hash__(self) -> int:
        return _cached_hash(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "type": self.type,
            "strength": self.strength,
            "channel": self.channel,
            "given": list(self.given),
            "why": self.why,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> RelationSpec:
        keys = ("from", "to", "type", "strength", "channel", "given", "why")
        raw = record(data, where, keys, keys[:5])
        source, target = ident(raw["from"], f"{where}.from"), ident(raw["to"], f"{where}.to")
        where = f"{where} ({source} -> {target})"
        need(source != target, where, "a relation links two different claims")
        given = tuple(ident(g, f"{where}.given") for g in items(raw.get("given", []), where))
        why = raw.get("why", "")
        need(isinstance(why, str), f"{where}.why", "expected text")
        return cls(
            source,
            target,
            choice(raw["type"], f"{where}.type", TYPES),
            choice(raw["strength"], f"{where}.strength", STRENGTHS),
            choice(raw["channel"], f"{where}.channel", CHANNELS),
            given,
            why,
        )


@dataclass(frozen=True)
class ActionSpec:
    id: str
    text: str
    consequential: bool = True
    footprint: float = 0.3  # the minimal-intervention prior: anchor -footprint when uninstructed
    requires: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return _cached_hash(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "consequential": self.consequential,
            "footprint": self.footprint,
            "requires": list(self.requires),
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> ActionSpec:
        raw = record(
            data, where, ("id", "text", "consequential", "footprint", "requires"), ("id", "text")
        )
        action_id = ident(raw["id"], f"{where}.id")
        where = f"{where} ({action_id})"
        consequential = raw.get("consequential", True)
        need(isinstance(consequential, bool), f"{where}.consequential", "expected true or false")
        requires = tuple(
            ident(r, f"{where}.requires") for r in items(raw.get("requires", []), where)
        )
        return cls(
            action_id,
            text(raw["text"], f"{where}.text"),
            consequential,
            number(raw.get("footprint", 0.3), f"{where}.footprint", 0.0, 1.0),
            requires,
        )
