"""Every number the adjudicator reads from a state (or the task's actions) is in the prompt."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from reasonbench.are.specs import RUBRIC
from reasonbench.strata.agentic import AgenticStratum
from reasonbench.strata.agentic.components import Authority, Grounds, Norms
from reasonbench.strata.agentic.render import num
from reasonbench.strata.base import Transition

Path = tuple[str | int, ...]
PARSERS: dict[str, Callable[[Any], object]] = {
    "G": Grounds.from_json,
    "N": Norms.from_json,
    "A": Authority.from_json,
}


def leaves(data: Any, path: Path = ()) -> Iterator[Path]:
    """Paths of the numeric (and boolean) leaves of a JSON document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, (*path, i))
    elif isinstance(data, bool | int | float):
        yield path


def perturbed(data: Any, path: Path) -> Any:
    """A copy of ``data`` with the leaf at ``path`` moved to another valid value."""
    out = copy.deepcopy(data)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    value = parent[path[-1]]
    if isinstance(value, bool):
        parent[path[-1]] = not value
    elif "non_negotiable" in path:
        parent[path[-1]] = -value  # a status is +1 or -1
    else:
        parent[path[-1]] = value - 0.01 if value >= 0.01 else value + 0.01
    return out


def _texts(stratum: AgenticStratum, t: Transition, family: str) -> str:
    return stratum.render(t, family, ("G", "N", "A")).text


def test_every_adjudicated_number_is_rendered(
    stratum: AgenticStratum, transitions: list[Transition]
) -> None:
    checked = 0
    for t in transitions[:4]:
        for family in stratum.template_families:
            before = _texts(stratum, t, family)
            for end in ("old", "new"):
                state = getattr(t, end)
                for source, parse in PARSERS.items():
                    data = state[source].to_json()
                    for path in leaves(data):
                        component = parse(perturbed(data, path))
                        moved = replace(t, **{end: state.replace(**{source: component})})
                        after = _texts(stratum, moved, family)
                        assert after != before, (family, end, source, path)
                        checked += 1
            actions = t.context["actions"]
            for path in leaves(actions):
                context = {**t.context, "actions": perturbed(actions, path)}
                after = _texts(stratum, replace(t, context=context), family)
                assert after != before, (family, "actions", path)
                checked += 1
    assert checked > 500


def test_every_family_states_the_strength_rubric(stratum: AgenticStratum) -> None:
    for family in stratum.template_families:
        intro = stratum.templates.family(family)["intro"]
        for strength, value in RUBRIC.items():
            pattern = rf"\b{strength}\b[^0-9,;]{{0,20}}{re.escape(num(value))}\b"
            assert re.search(pattern, intro), (family, strength)
