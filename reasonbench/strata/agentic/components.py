"""The three sources of an agentic evaluator state, as typed records with a JSON form.

* **Grounds G** — what is known about the case: background claims, the evidence the observed
  tools revealed (with the tool outcomes they came from), the anchors tools computed for
  judgments (*findings*), and the relations that evidence content itself asserts (the capped
  assertions of untrusted text);
* **Norms N** — principles and the agent's judgments, the relations among everything (typed, with
  rubric strengths), value priorities, the non-negotiable claims H, prohibitions F, and which
  claim is the operator's "data are not commands" rule;
* **Authority A** — the harness profile (stubbornness per channel, caps, kappa_A, who instructed
  which action and with what authority, defence strength) and the oversight thresholds.

The task (candidate actions) is the case context. Components hold specs, not numbers: the
adjudicator runs the provenance construction on every (hybrid) state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reasonbench.are.oversight import Thresholds
from reasonbench.are.profile import Profile
from reasonbench.are.specs import ActionSpec, ClaimSpec, RelationSpec
from reasonbench.are.validate import AreError, ident, items, need, number, record
from reasonbench.core.canonical import canonical_json, memo_text

FORMAT = "reasonbench-agentic/1"


def _claims(data: Any, where: str) -> tuple[ClaimSpec, ...]:
    return tuple(ClaimSpec.from_json(c, f"{where}[{i}]") for i, c in enumerate(items(data, where)))


def _relations(data: Any, where: str) -> tuple[RelationSpec, ...]:
    return tuple(
        RelationSpec.from_json(r, f"{where}[{i}]") for i, r in enumerate(items(data, where))
    )


def _pairs(data: Any, where: str) -> tuple[tuple[str, str], ...]:
    out = []
    for i, row in enumerate(items(data, where)):
        pair = items(row, f"{where}[{i}]")
        need(len(pair) == 2, f"{where}[{i}]", "expected a pair")
        out.append((ident(pair[0], f"{where}[{i}]"), ident(pair[1], f"{where}[{i}]")))
    return tuple(out)


def _cached_hash(obj: Any, fields: tuple[Any, ...]) -> int:
    """A component's hash, computed once: the adjudicator's caches key on whole components,
    and hashing their nested specs again on every lookup dominated a cold build."""
    h = obj.__dict__.get("_hash")
    if h is None:
        h = hash(fields)
        object.__setattr__(obj, "_hash", h)
    return int(h)


def _spec(spec: ClaimSpec | RelationSpec) -> str:
    return memo_text(spec, lambda: canonical_json(spec.to_json()))


def _specs(specs: Sequence[ClaimSpec | RelationSpec]) -> str:
    # a list's canonical JSON is its items' joined: each spec is encoded once per build, not
    # once per component that holds it (components are new on almost every draw, specs not)
    return "[" + ",".join(_spec(s) for s in specs) + "]"


def canonical(component: Grounds | Norms | Authority) -> str:
    """``canonical_json(component.to_json())``, computed once per object: every draw's and
    every record's states are encoded (``SupportsStateText``)."""
    return memo_text(component, lambda: _canonical(component))


def _canonical(component: Grounds | Norms | Authority) -> str:
    if isinstance(component, Authority):
        return canonical_json(component.to_json())
    specs: dict[str, Sequence[ClaimSpec | RelationSpec]] = (
        {"claims": component.claims, "asserted": component.asserted}
        if isinstance(component, Grounds)
        else {"claims": component.claims, "relations": component.relations}
    )
    plain = component.plain()
    fields = [
        f"{canonical_json(k)}:{_specs(specs[k]) if k in specs else canonical_json(plain[k])}"
        for k in sorted((*specs, *plain))
    ]
    return "{" + ",".join(fields) + "}"


@dataclass(frozen=True)
class Grounds:
    claims: tuple[ClaimSpec, ...]
    asserted: tuple[RelationSpec, ...] = ()
    findings: tuple[tuple[str, float], ...] = ()  # sorted by claim id
    observed: tuple[tuple[str, str], ...] = ()  # (tool, outcome), in the family's tool order

    def __hash__(self) -> int:
        return _cached_hash(self, (self.claims, self.asserted, self.findings, self.observed))

    def to_json(self) -> dict[str, Any]:
        return {
            "claims": [c.to_json() for c in self.claims],
            "asserted": [r.to_json() for r in self.asserted],
            **self.plain(),
        }

    def plain(self) -> dict[str, Any]:
        """The fields that hold no specs, as in :meth:`to_json`."""
        return {"findings": dict(self.findings), "observed": [list(p) for p in self.observed]}

    @classmethod
    def from_json(cls, data: Any, where: str = "grounds") -> Grounds:
        raw = record(data, where, ("claims", "asserted", "findings", "observed"), ("claims",))
        findings = raw.get("findings") or {}
        need(isinstance(findings, dict), f"{where}.findings", "expected a mapping")
        return cls(
            _claims(raw["claims"], f"{where}.claims"),
            _relations(raw.get("asserted", []), f"{where}.asserted"),
            tuple(
                sorted(
                    (str(k), number(v, f"{where}.findings.{k}", -1, 1)) for k, v in findings.items()
                )
            ),
            _pairs(raw.get("observed", []), f"{where}.observed"),
        )


@dataclass(frozen=True)
class Norms:
    claims: tuple[ClaimSpec, ...]
    relations: tuple[RelationSpec, ...]
    priorities: tuple[tuple[str, float], ...] = ()  # sorted; eta defaults to 1
    non_negotiable: tuple[tuple[str, int], ...] = ()  # sorted
    prohibitions: tuple[tuple[str, str], ...] = ()
    defence: str | None = None

    def __hash__(self) -> int:
        fields = (self.claims, self.relations, self.priorities, self.non_negotiable)
        return _cached_hash(self, (*fields, self.prohibitions, self.defence))

    def to_json(self) -> dict[str, Any]:
        return {
            "claims": [c.to_json() for c in self.claims],
            "relations": [r.to_json() for r in self.relations],
            **self.plain(),
        }

    def plain(self) -> dict[str, Any]:
        """The fields that hold no specs, as in :meth:`to_json`."""
        return {
            "priorities": dict(self.priorities),
            "non_negotiable": dict(self.non_negotiable),
            "prohibitions": [list(p) for p in self.prohibitions],
            "defence": self.defence,
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "norms") -> Norms:
        keys = ("claims", "relations", "priorities", "non_negotiable", "prohibitions", "defence")
        raw = record(data, where, keys, ("claims", "relations"))
        eta = raw.get("priorities") or {}
        hard = raw.get("non_negotiable") or {}
        need(isinstance(eta, dict) and isinstance(hard, dict), where, "expected mappings")
        defence = raw.get("defence")
        return cls(
            _claims(raw["claims"], f"{where}.claims"),
            _relations(raw["relations"], f"{where}.relations"),
            tuple(
                sorted((str(k), number(v, f"{where}.priorities.{k}", 0.0)) for k, v in eta.items())
            ),
            tuple(
                sorted((str(k), _status(v, f"{where}.non_negotiable.{k}")) for k, v in hard.items())
            ),
            _pairs(raw.get("prohibitions", []), f"{where}.prohibitions"),
            None if defence is None else ident(defence, f"{where}.defence"),
        )


def _status(value: Any, where: str) -> int:
    need(value in (-1, 1) and not isinstance(value, bool), where, "status must be +1 or -1")
    return int(value)


@dataclass(frozen=True)
class Authority:
    profile: Profile
    oversight: Thresholds

    def __hash__(self) -> int:
        return _cached_hash(self, (self.profile, self.oversight))

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile.to_json(), "oversight": self.oversight.to_json()}

    @classmethod
    def from_json(cls, data: Any, where: str = "authority") -> Authority:
        raw = record(data, where, ("profile", "oversight"), ("profile", "oversight"))
        return cls(
            Profile.from_json(raw["profile"], f"{where}.profile"),
            Thresholds.from_json(raw["oversight"], f"{where}.oversight"),
        )


CONTEXT_KEYS = ("case", "surface", "actions")


def context_of(
    case: str, surface: tuple[tuple[str, str], ...], actions: tuple[ActionSpec, ...]
) -> dict[str, Any]:
    """The case context: the family, the unit's surface details and the candidate actions."""
    return {"case": case, "surface": dict(surface), "actions": [a.to_json() for a in actions]}


def surface_of(context: Any) -> tuple[tuple[str, str], ...]:
    raw = record(context, "context", CONTEXT_KEYS, CONTEXT_KEYS)
    need(isinstance(raw["surface"], dict), "context.surface", "expected a mapping")
    return tuple(sorted((str(k), str(v)) for k, v in raw["surface"].items()))


def actions_of(context: Any) -> tuple[ActionSpec, ...]:
    """The candidate actions of a case context; :class:`AreError` names what is malformed."""
    raw = record(context, "context", CONTEXT_KEYS, CONTEXT_KEYS)
    actions = tuple(
        ActionSpec.from_json(a, f"context.actions[{i}]")
        for i, a in enumerate(items(raw["actions"], "context.actions"))
    )
    if len({a.id for a in actions}) != len(actions):
        raise AreError("context.actions: duplicate action id")
    return actions
