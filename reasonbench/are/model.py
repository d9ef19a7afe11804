"""The reflective state G = (V, R, s, a0, kappa, lambda, H, x_hat, F, Ac) as validated, typed data.

A state is numeric: weights and stubbornness are already set (by the provenance construction in
:mod:`reasonbench.are.provenance`, or directly by tests). Claims are referred to by id everywhere,
so a state round-trips through JSON and reads the same in a prompt, a certificate or a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from reasonbench.are.validate import choice, ident, items, need, number, record

KINDS = ("P", "J", "B", "A")  # principles, considered judgments, background/evidence, actions
CHANNELS = ("operator", "evidence", "user", "agent", "untrusted")  # in trust order, most first
TYPES = ("supp", "att", "coh", "contra")
STRUCTURE = "structure"  # attribution's pseudo-source for action-action terms and footprints


@dataclass(frozen=True)
class Claim:
    """One claim u with its channel s(u), anchor a0, stubbornness kappa and systematicity lambda.

    ``instructed`` is the channel whose direct instruction set an action's anchor (attribution
    credits that anchor to it); ``None`` for every other claim.
    """

    id: str
    kind: str
    channel: str
    anchor: float = 0.0
    stubbornness: float = 0.0
    systematicity: float = 0.0
    text: str = ""
    instructed: str | None = None


@dataclass(frozen=True)
class Relation:
    """(u, v, tau, w) asserted by ``channel``; ``supp`` is ordered (source supports target)."""

    source: str
    target: str
    type: str
    weight: float
    channel: str
    why: str = ""


@dataclass(frozen=True)
class ReflectiveState:
    """Claims, relations, non-negotiables H with statuses, prohibitions F, consequential Ac."""

    claims: tuple[Claim, ...]
    relations: tuple[Relation, ...] = ()
    fixed: tuple[tuple[str, int], ...] = ()  # (claim, prescribed status +1/-1): H and x_hat
    prohibitions: tuple[tuple[str, str], ...] = ()  # (h, a): a not taken while h accepted
    consequential: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_state(self)

    @classmethod
    def trusted(
        cls,
        claims: tuple[Claim, ...],
        relations: tuple[Relation, ...],
        fixed: tuple[tuple[str, int], ...],
        prohibitions: tuple[tuple[str, str], ...],
        consequential: tuple[str, ...],
    ) -> ReflectiveState:
        """A state built from already-validated parts (the provenance construction's output),
        without re-running :func:`check_state`: a benchmark build constructs one per cube cell,
        and validation would double the adjudicator's cost. Tests check both paths agree."""
        state: ReflectiveState = object.__new__(cls)
        for name, value in (
            ("claims", claims),
            ("relations", relations),
            ("fixed", fixed),
            ("prohibitions", prohibitions),
            ("consequential", consequential),
        ):
            object.__setattr__(state, name, value)
        return state

    @cached_property
    def index(self) -> dict[str, int]:
        return {c.id: i for i, c in enumerate(self.claims)}

    @property
    def n(self) -> int:
        return len(self.claims)

    @cached_property
    def actions(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.claims if c.kind == "A")

    def claim(self, claim_id: str) -> Claim:
        return self.claims[self.index[claim_id]]

    def to_json(self) -> dict[str, Any]:
        return {
            "claims": [
                {
                    "id": c.id,
                    "kind": c.kind,
                    "channel": c.channel,
                    "anchor": c.anchor,
                    "stubbornness": c.stubbornness,
                    "systematicity": c.systematicity,
                    "text": c.text,
                    "instructed": c.instructed,
                }
                for c in self.claims
            ],
            "relations": [
                [r.source, r.target, r.type, r.weight, r.channel, r.why] for r in self.relations
            ],
            "fixed": [[u, s] for u, s in self.fixed],
            "prohibitions": [[h, a] for h, a in self.prohibitions],
            "consequential": list(self.consequential),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "state") -> ReflectiveState:
        keys = ("claims", "relations", "fixed", "prohibitions", "consequential")
        raw = record(data, where, keys, keys)
        claims = []
        for i, item in enumerate(items(raw["claims"], f"{where}.claims")):
            at = f"{where}.claims[{i}]"
            c = record(item, at, Claim.__dataclass_fields__, ("id", "kind", "channel"))
            claims.append(Claim(**c))
        relations = []
        for i, item in enumerate(items(raw["relations"], f"{where}.relations")):
            row = items(item, f"{where}.relations[{i}]")
            need(len(row) == 6, f"{where}.relations[{i}]", "expected [u, v, type, w, channel, why]")
            relations.append(Relation(*row))
        fixed = tuple((str(u), int(s)) for u, s in items(raw["fixed"], f"{where}.fixed"))
        banned = tuple((str(h), str(a)) for h, a in items(raw["prohibitions"], f"{where}.F"))
        consequential = tuple(str(a) for a in items(raw["consequential"], f"{where}.Ac"))
        return cls(tuple(claims), tuple(relations), fixed, banned, consequential)


def check_state(state: ReflectiveState, where: str = "reflective state") -> None:
    """Raise :class:`AreError` naming the first malformed part (runs on construction)."""
    ids: dict[str, Claim] = {}
    for c in state.claims:
        at = f"{where}: claim {c.id!r}"
        ident(c.id, at)
        need(c.id not in ids, at, "duplicate claim id")
        ids[c.id] = c
        choice(c.kind, f"{at}.kind", KINDS)
        choice(c.channel, f"{at}.channel", CHANNELS)
        number(c.anchor, f"{at}.anchor", -1.0, 1.0)
        number(c.stubbornness, f"{at}.stubbornness", 0.0)
        number(c.systematicity, f"{at}.systematicity", 0.0)
        if c.instructed is not None:
            need(c.kind == "A", at, "only an action can carry an instruction")
            choice(c.instructed, f"{at}.instructed", CHANNELS)
    for k, r in enumerate(state.relations):
        at = f"{where}: relation {k} ({r.source}, {r.target})"
        need(r.source in ids and r.target in ids, at, "endpoint is not a claim")
        need(r.source != r.target, at, "a relation links two different claims")
        choice(r.type, f"{at}.type", TYPES)
        need(number(r.weight, f"{at}.weight") > 0, at, "weight must be > 0")
        choice(r.channel, f"{at}.channel", CHANNELS)
    for u, status in state.fixed:
        need(u in ids, f"{where}: H", f"unknown claim {u!r}")
        need(status in (-1, 1), f"{where}: H[{u}]", "status must be +1 or -1")
        # Feasibility: an action may be prescribed only as not taken, so rejecting every
        # action is always feasible and X(G) is never empty.
        need(ids[u].kind != "A" or status == -1, f"{where}: H[{u}]", "actions only as -1")
    need(len({u for u, _ in state.fixed}) == len(state.fixed), f"{where}: H", "duplicate claim")
    for h, a in state.prohibitions:
        need(h in ids and a in ids, f"{where}: F ({h}, {a})", "unknown claim")
        need(ids[a].kind == "A" and h != a, f"{where}: F ({h}, {a})", "second must be an action")
    for a in state.consequential:
        need(a in ids and ids[a].kind == "A", f"{where}: Ac", f"{a!r} is not an action")
    need(len(set(state.consequential)) == len(state.consequential), f"{where}: Ac", "duplicate")


def decision_label(decision: tuple[str, ...]) -> str:
    """The verdict text of a consequential decision: action ids joined by '+', sorted."""
    return "+".join(sorted(decision)) if decision else NO_ACTION


NO_ACTION = "no_action"
