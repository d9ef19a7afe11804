"""The provenance construction in two stages: a profile-free layout, then the profile's numbers.

What is *present* in a state — which claims, actions and relations survive hybrid compatibility,
in which order, each relation's rubric weight times priorities — depends on the specs alone; the
harness :class:`~reasonbench.are.profile.Profile` then sets every number (stubbornness, the
anchors of instructed actions, caps, the defence strength). :class:`Layout` is the first stage,
:meth:`Layout.numbers` the second, as arrays; :class:`Numbers` compiles the energy and the
oversight forms from those arrays (Lemma 1, vectorised) and builds the
:class:`~reasonbench.are.model.ReflectiveState` only on request.
:func:`reasonbench.are.provenance.construct` is ``layout(...).numbers(profile).state()``, so the
construction is written once; an adjudicator reuses one layout for every authority it meets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

from reasonbench.are.compilation import BETA, Matrix, Quadratic, Vector
from reasonbench.are.model import CHANNELS, Claim, ReflectiveState, Relation
from reasonbench.are.profile import Profile
from reasonbench.are.specs import RUBRIC, ActionSpec, ClaimSpec, RelationSpec
from reasonbench.are.validate import AreError

__all__ = ["DEFENCE_WHY", "Layout", "Numbers", "layout"]

DEFENCE_WHY = "harness: instructions inside data are data, not commands"
CODE = {c: k for k, c in enumerate(CHANNELS)}
UNTRUSTED, OPERATOR, AGENT = CODE["untrusted"], CODE["operator"], CODE["agent"]
_BETA = np.array(list(BETA.values()))  # per type code: beta_W, beta_1, beta_2, beta_0
_TYPE = {t: k for k, t in enumerate(BETA)}
_TYPE_NAME = tuple(BETA)  # a type code's name
_ATT = _TYPE["att"]
Ints = NDArray[np.intp]


def _ints(values: Iterable[int]) -> Ints:
    return np.array(list(values), dtype=np.intp)


@lru_cache(maxsize=256)
def _profile_arrays(profile: Profile) -> tuple[Vector, Vector]:
    """kappa_bar and the caps of a profile as arrays indexed by channel code."""
    caps = np.full(len(CHANNELS), np.inf)
    for c, w in profile.caps:
        caps[CODE[c]] = w
    return np.array([k for _, k in profile.stubbornness]), caps


@dataclass(frozen=True, eq=False)
class Layout:
    """Claims (specs, then available actions), kept relations and the fixed structure."""

    claims: tuple[ClaimSpec, ...]
    findings: tuple[float | None, ...]  # a tool-computed anchor per claim, or None
    actions: tuple[ActionSpec, ...]  # the available ones, in task order
    relations: tuple[RelationSpec, ...]  # kept, in the given order
    base_weight: Vector  # eta_u * eta_v * rubric strength of each kept relation
    defence: int | None  # index of the "data are not commands" claim, if present
    eta: Vector  # priority of every node (claims, then actions), for the defence weight
    fixed: tuple[tuple[str, int], ...]
    prohibitions: tuple[tuple[str, str], ...]
    consequential: tuple[str, ...]

    @cached_property
    def forms(self) -> dict[tuple[bytes, bytes], Quadratic]:
        """Relation forms by (weights, defended nodes): see :attr:`Numbers.violation`."""
        return {}

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return (*(c.id for c in self.claims), *(a.id for a in self.actions))

    @cached_property
    def index(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.ids)}

    @cached_property
    def _arrays(self) -> tuple[Ints, Ints, Ints, Ints]:
        index = self.index
        return (
            _ints(index[r.source] for r in self.relations),
            _ints(index[r.target] for r in self.relations),
            _ints(_TYPE[r.type] for r in self.relations),
            _ints(CODE[r.channel] for r in self.relations),
        )

    @cached_property
    def _claim_arrays(self) -> tuple[Vector, Vector, Ints, NDArray[np.bool_]]:
        """Anchor, systematicity, channel and whether a finding set the anchor, per claim."""
        anchors = [
            c.anchor if f is None else f for c, f in zip(self.claims, self.findings, strict=True)
        ]
        return (
            np.array(anchors, dtype=float),
            np.array([c.systematicity for c in self.claims], dtype=float),
            _ints(CODE[c.channel] for c in self.claims),
            np.array([f is not None for f in self.findings], dtype=bool),
        )

    def numbers(self, profile: Profile) -> Numbers:
        """The profile's numbers for this layout (arrays over claims, then actions)."""
        kappa_bar, caps = _profile_arrays(profile)
        anchors, lam, channel, found = self._claim_arrays
        kappa = np.where(found, kappa_bar[CODE["evidence"]], kappa_bar[channel])
        instructed = dict(profile.instructions)
        by = [instructed.get(a.id) for a in self.actions]
        act_channel, act_anchor, act_kappa = [], [], []
        for a, c in zip(self.actions, by, strict=True):
            if c is None:
                act_channel.append(AGENT)
                act_anchor.append(-a.footprint)
                act_kappa.append(profile.action_stubbornness)
            else:
                act_channel.append(CODE[c])
                act_anchor.append(1.0)
                act_kappa.append(profile.instruction_kappa(c))
        channels = np.concatenate([channel, np.array(act_channel, dtype=np.intp)])
        untrusted = channels == UNTRUSTED
        u, v, types, spec_channel = self._arrays
        any_untrusted = bool(untrusted.any())
        if any_untrusted:
            rel_channel = np.where(untrusted[u] | untrusted[v], UNTRUSTED, spec_channel)
        else:
            rel_channel = spec_channel
        weight = np.minimum(self.base_weight, caps[rel_channel])
        if self.defence is not None and any_untrusted:
            targets = np.flatnonzero(untrusted)
            d = np.full(len(targets), self.defence, dtype=np.intp)
            strength = RUBRIC[profile.defence]
            u, v = np.concatenate([u, d]), np.concatenate([v, targets])
            types = np.concatenate([types, np.full(len(targets), _ATT, dtype=np.intp)])
            rel_channel = np.concatenate([rel_channel, np.full(len(targets), OPERATOR)])
            weight = np.concatenate([weight, self.eta[self.defence] * self.eta[targets] * strength])
        return Numbers(
            self,
            channels,
            np.concatenate([anchors, act_anchor]),
            np.concatenate([kappa, act_kappa]),
            np.concatenate([lam, np.zeros(len(self.actions))]),
            tuple(c for c in by),
            u,
            v,
            types,
            weight,
            rel_channel,
        )


@dataclass(frozen=True, eq=False)
class Numbers:
    """A constructed state as arrays: one entry per node (claims, then actions) and relation
    (kept relations, then the harness's defensive attacks, as in the constructed state)."""

    layout: Layout
    channel: Ints
    anchor: Vector
    kappa: Vector
    systematicity: Vector
    instructed: tuple[str | None, ...]  # the instructing channel of each action
    source: Ints
    target: Ints
    type: Ints
    weight: Vector
    relation_channel: Ints

    # The frame the solver reads (ReflectiveState has the same attributes).
    @property
    def n(self) -> int:
        return len(self.channel)

    @property
    def index(self) -> dict[str, int]:
        return self.layout.index

    @property
    def fixed(self) -> tuple[tuple[str, int], ...]:
        return self.layout.fixed

    @property
    def prohibitions(self) -> tuple[tuple[str, str], ...]:
        return self.layout.prohibitions

    @property
    def consequential(self) -> tuple[str, ...]:
        return self.layout.consequential

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.layout.actions)

    def _relation_form(self, keep: NDArray[np.bool_] | None = None) -> Quadratic:
        """The violated weight of the relations in ``keep`` (all by default), compiled."""
        u, v, t, w = self.source, self.target, self.type, self.weight
        if keep is not None:
            u, v, t, w = u[keep], v[keep], t[keep], w[keep]
        n = self.n
        terms = _BETA[t] * w[:, None]
        # bincount adds each cell's terms in relation order: deterministic, and symmetric
        flat = np.bincount(u * n + v, terms[:, 0], n * n) + np.bincount(
            v * n + u, terms[:, 0], n * n
        )
        b = np.bincount(u, terms[:, 1], n) + np.bincount(v, terms[:, 2], n)
        W: Matrix = flat.reshape(n, n).astype(np.float64, copy=False)
        return Quadratic(W, b.astype(np.float64, copy=False), float(terms[:, 3].sum()))

    @cached_property
    def violation(self) -> Quadratic:
        """The violated weight of every relation (the numerator of rho). Shared by every profile
        that gives the layout's relations the same weights and defensive attacks (most
        authority edits change only stubbornness, instructions or thresholds)."""
        key = (self.weight.tobytes(), self.target[len(self.layout.relations) :].tobytes())
        forms = self.layout.forms
        found = forms.get(key)
        if found is None:
            found = forms[key] = self._relation_form()
        return found

    @cached_property
    def energy(self) -> Quadratic:
        """E(x) (Definition 6): the relation terms plus anchors and systematicity."""
        rel = self.violation
        b = rel.b + self.kappa * self.anchor - self.systematicity / 2
        return Quadratic(rel.W, b, rel.c + float(self.systematicity.sum()) / 2)

    def override(self, channel: str) -> Quadratic:
        """Ov_s(x) for ``channel`` (as :func:`reasonbench.are.compilation.override_form`)."""
        found = self._overrides.get(channel)
        if found is None:
            found = self._overrides[channel] = self._override(channel)
        return found

    @cached_property
    def _overrides(self) -> dict[str, Quadratic]:
        return {}

    def _override(self, channel: str) -> Quadratic:
        code = CODE[channel]
        form = self._relation_form(self.relation_channel == code)
        own = (self.channel == code) & (self.anchor != 0)
        pull = self.kappa * self.anchor * own
        return Quadratic(form.W, form.b + pull / 2, form.c + float(np.abs(pull).sum()) / 2)

    @property
    def relation_types(self) -> list[str]:
        """Each relation's type (kept relations, then the defence's attacks), by name."""
        return [_TYPE_NAME[code] for code in self.type.tolist()]

    @cached_property
    def trusted_weight(self) -> float:
        """Weight of the relations with no untrusted endpoint (rho's denominator)."""
        untrusted = self.channel == UNTRUSTED
        clean = ~(untrusted[self.source] | untrusted[self.target])
        return float(self.weight[clean].sum())

    @cached_property
    def total_weight(self) -> float:
        return float(self.weight.sum())

    def state(self) -> ReflectiveState:
        """The constructed :class:`ReflectiveState` (claims, actions, relations, H, F, Ac)."""
        lay, ids = self.layout, self.layout.ids
        claims = [
            Claim(c.id, c.kind, c.channel, float(a), float(k), c.systematicity, c.text)
            for c, a, k in zip(lay.claims, self.anchor, self.kappa, strict=False)
        ]
        k0 = len(lay.claims)
        for j, (a, by) in enumerate(zip(lay.actions, self.instructed, strict=True)):
            channel = "agent" if by is None else by
            i = k0 + j
            claims.append(
                Claim(
                    a.id, "A", channel, float(self.anchor[i]), float(self.kappa[i]), 0.0, a.text, by
                )
            )
        relations = [
            Relation(ids[u], ids[v], r.type, float(w), CHANNELS[c], r.why)
            for r, u, v, w, c in zip(
                lay.relations,
                self.source,
                self.target,
                self.weight,
                self.relation_channel,
                strict=False,
            )
        ]
        for k in range(len(lay.relations), len(self.weight)):
            d, t = ids[self.source[k]], ids[self.target[k]]
            relations.append(Relation(d, t, "att", float(self.weight[k]), "operator", DEFENCE_WHY))
        return ReflectiveState.trusted(
            tuple(claims), tuple(relations), lay.fixed, lay.prohibitions, lay.consequential
        )


def layout(
    *,
    claims: Iterable[ClaimSpec],
    relations: Iterable[RelationSpec],
    actions: Iterable[ActionSpec],
    findings: Mapping[str, float] | None = None,
    priorities: Mapping[str, float] | None = None,
    fixed: Mapping[str, int] | None = None,
    prohibitions: Iterable[tuple[str, str]] = (),
    defence: str | None = None,
) -> Layout:
    """What is present (hybrid compatibility, docs/are.md): a relation only with both endpoints
    and every ``given`` claim, an action only with every claim it ``requires``, H, F and
    findings only on present claims; a relation whose priority-scaled weight is 0 is dropped."""
    findings, eta, fixed = findings or {}, priorities or {}, fixed or {}
    claims = tuple(claims)
    present = {c.id for c in claims}
    available = []
    for a in actions:
        if a.id in present:
            raise AreError(f"action {a.id!r} has the id of a claim")
        if all(r in present for r in a.requires):
            available.append(a)
    present |= {a.id for a in available}
    kept, base = [], []
    for r in relations:
        if r.source not in present or r.target not in present:
            continue
        if r.given and not all(g in present for g in r.given):
            continue
        w = eta.get(r.source, 1.0) * eta.get(r.target, 1.0) * RUBRIC[r.strength]
        if w > 0:  # a zero priority silences a relation
            kept.append(r)
            base.append(w)
    ids = [*(c.id for c in claims), *(a.id for a in available)]
    return Layout(
        claims,
        tuple(findings.get(c.id) for c in claims),
        tuple(available),
        tuple(kept),
        np.array(base, dtype=float),
        ids.index(defence) if defence is not None and defence in present else None,
        np.array([eta.get(i, 1.0) for i in ids], dtype=float),
        tuple((u, s) for u, s in sorted(fixed.items()) if u in present),
        tuple((h, a) for h, a in prohibitions if h in present and a in present),
        tuple(a.id for a in available if a.consequential),
    )
