"""The prompt text of a transition: a header, then one section per source in ``source_order``.

A changed source shows its old text then its revised text under the family's before/after
labels; an unchanged source is shown once under the family's "unchanged" label (its content is
still needed to decide, and showing it twice would only lengthen the prompt). Task instructions
are not part of the rendering: assembly adds the instruction of each learning target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.strata.base import Rendering, Transition
from reasonbench.strata.organizational.adjudicator import unpack
from reasonbench.strata.organizational.model import Grounds
from reasonbench.strata.organizational.render import (
    Family,
    grounds_text,
    norm_text,
    scope_text,
    subject_words,
)
from reasonbench.strata.organizational.schema import Clause, FieldSpec


def source_text(
    clause: Clause, specs: Mapping[str, FieldSpec], source: str, component: Any, family: Family
) -> str:
    """The text of one component: ``G`` grounds, ``N`` the rule, ``A`` the scope."""
    if source == "G":
        return grounds_text(specs, in_schema_order(clause, component), family)
    if source == "N":
        return norm_text(clause, component, family)
    return scope_text(clause, component, family)


def in_schema_order(clause: Clause, grounds: Grounds) -> Grounds:
    """``grounds`` in the clause's schema order, distractor facts last (in their own order).

    A generated state already is; a state parsed back from its stored JSON (keys sorted) is not,
    and must still render to the stored prompt byte for byte."""
    position = {name: i for i, name in enumerate(clause.by_name)}
    ordered = sorted(grounds.values, key=lambda item: position.get(item[0], len(position)))
    return grounds if tuple(ordered) == grounds.values else Grounds(tuple(ordered))


SourceText = Callable[[Clause, Mapping[str, FieldSpec], str, Any, Family], str]


def render_transition(
    clause: Clause,
    specs: Mapping[str, FieldSpec],
    transition: Transition,
    family: Family,
    family_name: str,
    source_order: tuple[str, ...],
    text_of: SourceText = source_text,
) -> Rendering:
    """The prompt; ``text_of`` renders one component (policy rewrites pass their own)."""
    if sorted(source_order) != sorted(GNA):
        raise ValueError(f"source_order must be a permutation of {GNA}, got {source_order}")
    words = subject_words(clause)
    old = dict(zip(GNA, unpack(transition.old), strict=True))
    new = dict(zip(GNA, unpack(transition.new), strict=True))
    blocks = [family["header"].format(title=clause.title, **words)]
    for source in source_order:
        heading = family[f"heading_{source}"].format(**words)
        before = text_of(clause, specs, source, old[source], family)
        if old[source] == new[source]:  # an unchanged source is rendered (and shown) once
            body = f"{family['same']} {before}"
        else:
            after = text_of(clause, specs, source, new[source], family)
            body = f"{family['before']} {before}\n{family['after']} {after}"
        blocks.append(f"{heading}\n{body}")
    return Rendering("\n\n".join(blocks), family_name, tuple(source_order))
