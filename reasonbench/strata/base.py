"""The contract every stratum implements, so benchmark assembly stays stratum-agnostic.

A stratum owns (1) its independent units (a clause, a world), (2) the JSON form of its states,
(3) a trusted adjudicator, (4) typed mutation operators that make (old, new) transitions,
(5) renderings of a transition into prompt text and (6) certified-irrelevant distractors.
Assembly (splits, quotas, controls, targets, audit) only talks to this interface.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Protocol, cast, runtime_checkable

from reasonbench.core.adjudicator import Adjudicator
from reasonbench.core.canonical import canonical_json
from reasonbench.core.state import EvaluatorState

JSON = dict[str, Any]


@dataclass(frozen=True)
class Operator:
    """A named mutation operator typed by the one source it changes ("G", "N" or "A").

    ``apply(unit, state, rng)`` returns the mutated component for ``source`` (never touching the
    others), or ``None`` when the operator does not apply to this state. ``noop`` marks operators
    that change the component but, by construction, no verdict (invariance cases).
    """

    name: str
    source: str
    apply: Callable[[Any, EvaluatorState[Any], random.Random], Any | None]
    noop: bool = False
    description: str = ""


NOOP_WEIGHT = 0.5  # no-op operators are drawn at half weight (every operator makes stable cases)


def operator_order(
    names: Sequence[str], operators: Mapping[str, Operator], rng: random.Random
) -> list[str]:
    """``names`` in a weighted random order (no-ops at ``NOOP_WEIGHT``): the first is the
    operator drawn, the rest are the fallbacks, in case it does not apply. Each pick is
    ``rng.choices`` over what is left, spelled out (the same draws, one ``rng.random()`` each,
    without its per-call overhead)."""
    pool, out = list(names), []
    weights = [NOOP_WEIGHT if operators[n].noop else 1.0 for n in pool]
    while pool:
        cumulative = list(accumulate(weights))
        index = bisect(cumulative, rng.random() * cumulative[-1], 0, len(pool) - 1)
        out.append(pool.pop(index))
        del weights[index]
    return out


@dataclass(frozen=True)
class Transition:
    """One benchmark case before rendering: a unit, an old and a revised state, and how."""

    unit_id: str
    old: EvaluatorState[Any]
    new: EvaluatorState[Any]
    operators: tuple[str, ...]  # operator names applied, in application order
    context: Mapping[str, Any] = field(default_factory=dict)  # e.g. the query of a logical case


@dataclass(frozen=True)
class Rendering:
    """Prompt text of a transition plus what produced it (for splits and controls)."""

    text: str
    template_family: str
    source_order: tuple[str, ...]


class Stratum(Protocol):
    """What assembly needs from a stratum. Implementations live in ``reasonbench.strata.*``."""

    name: str
    labels: frozenset[str]
    template_families: tuple[str, ...]
    operators: Mapping[str, Operator]

    def units(self, seed: int) -> Sequence[Any]:
        """All independent units, deterministic in ``seed``; each has a ``unit_id``."""
        ...

    def adjudicator(self, context: Mapping[str, Any]) -> Adjudicator:
        """The trusted adjudicator for a case with this context."""
        ...

    def sample_transition(
        self,
        unit: Any,
        rng: random.Random,
        sources: tuple[str, ...],
        operators: Sequence[str] | None = None,
        *,
        aim: str | None = None,
        min_depth: int | None = None,
        max_depth: int | None = None,
    ) -> Transition | None:
        """A random starting state for ``unit`` and a revision that changes exactly ``sources``.

        One operator per source in ``sources`` is drawn from ``operators`` (registered names;
        ``None`` = all registered operators of that source) and applied in G, N, A order; a
        multi-source change is the composition of single-source ones. ``None`` when no allowed
        operator applies. Everything random comes from ``rng`` (never ``hash()`` or set order).

        ``aim`` ("ambiguous", "changed" or "stable") and the depth bounds are *hints* a stratum may
        use to spend less on rejected draws; callers still classify every case by executing it, and
        a stratum without proof depth ignores the bounds.
        """
        ...

    def state_to_json(self, state: EvaluatorState[Any]) -> JSON:
        """Self-contained JSON, re-executable by another engine (documented per stratum)."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> EvaluatorState[Any]: ...

    def render(
        self,
        transition: Transition,
        template_family: str,
        source_order: tuple[str, ...],
    ) -> Rendering:
        """Prompt text presenting old and revised G, N, A in ``source_order``."""
        ...

    def add_distractor(self, transition: Transition, rng: random.Random) -> Transition | None:
        """The same transition with an irrelevant ground or norm added to both states.

        Must be certified by the caller (all 2^k cells unchanged); ``None`` if none applies.
        """
        ...

    def proof_depth(self, transition: Transition) -> int | None:
        """Minimal derivation depth (logical stratum); ``None`` where it does not apply."""
        ...

    def trace(self, state: EvaluatorState[Any], context: Mapping[str, Any]) -> list[str]:
        """Short execution trace (which conditions/rules fired) for rationale targets."""
        ...


@runtime_checkable
class SupportsQuarantine(Protocol):
    """An optional stratum ability: planting untrusted text that its adjudicator must reject
    (the agentic stratum, docs/are.md). Strata without an untrusted channel do not have it, and
    the quarantine control does not apply to them."""

    def quarantine_control(self, transition: Transition, rng: random.Random) -> Transition | None:
        """``transition`` with untrusted claims planted in both states, certified to change no
        cell; ``None`` when no such injection exists."""
        ...


@runtime_checkable
class SupportsCardNote(Protocol):
    """An optional stratum ability: one paragraph the dataset card of every build with this
    stratum carries (e.g. a reading of its labels a user must know). Strata without it add
    nothing, so builds without them keep their card bytes."""

    card_note: str


@runtime_checkable
class SupportsUnitLabel(Protocol):
    """An optional stratum ability: what its independent units are called in a build's
    statistics (``clauses``: the count is stored as ``<stratum>_clauses`` and shown as
    "<stratum> clauses"). Strata without it are counted as ``<stratum>_units``."""

    unit_label: str


def unit_label(stratum: Stratum) -> str:
    """The plural noun a build's statistics count ``stratum``'s units by."""
    return stratum.unit_label if isinstance(stratum, SupportsUnitLabel) else "units"


@runtime_checkable
class SupportsStateText(Protocol):
    """An optional stratum ability: a state's stored text, built cheaply. ``state_text(state)``
    must equal ``canonical_json(state_to_json(state))`` exactly; a stratum assembles it from
    parts it encodes once per object (:func:`reasonbench.core.canonical.memo_text`). A build
    encodes every draw's states for a pool's duplicate check and every record's for storage,
    which dominated the JSON work of a build. Strata without it are encoded in full."""

    def state_text(self, state: EvaluatorState[Any]) -> str: ...


def state_text(stratum: Stratum, state: EvaluatorState[Any]) -> str:
    """``canonical_json(stratum.state_to_json(state))``, by the stratum's cheap path if any."""
    kind = type(stratum)
    cheap = _CHEAP_TEXT.get(kind)
    if cheap is None:
        cheap = _CHEAP_TEXT[kind] = isinstance(stratum, SupportsStateText)
    if cheap:
        return cast(SupportsStateText, stratum).state_text(state)
    return canonical_json(stratum.state_to_json(state))


# Whether a stratum class has the cheap path, per class: an ``isinstance`` against a runtime
# protocol inspects its members on every call, and a build asks for every draw's two states.
_CHEAP_TEXT: dict[type, bool] = {}
