"""The provenance-based construction (Definition 5): the harness, not the model, sets authority.

From claim, relation and action specs plus the harness's profile
(:class:`~reasonbench.are.profile.Profile`), :func:`construct` builds the numeric
:class:`ReflectiveState`:

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

from collections.abc import Iterable, Mapping

from reasonbench.are.layout import layout
from reasonbench.are.model import ReflectiveState
from reasonbench.are.profile import Profile
from reasonbench.are.specs import ActionSpec, ClaimSpec, RelationSpec


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
