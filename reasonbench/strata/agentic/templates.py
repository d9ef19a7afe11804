"""Rendering templates of the agentic stratum as validated data (``data/are/templates.yaml``).

Every family defines every key below, and each key's ``str.format`` placeholders must be exactly
the ones listed, so a typo fails at load (naming family and key) instead of as a half-rendered
prompt. Which family the linguistic-shift split holds out is the benchmark's choice
(``shifts.held_out_family`` in ``conf/benchmark/*.yaml``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reasonbench.are.loader import DATA_DIR
from reasonbench.are.validate import AreError, need, record
from reasonbench.strata.template_set import TemplateSet, placeholders

RELATION = ("source", "verb", "target", "strength", "channel")
KEYS: dict[str, tuple[str, ...]] = {
    "intro": (),
    "task": ("task",),
    "actions_title": (),
    "action": ("id", "text", "role", "footprint"),
    "action_requires": ("id", "text", "role", "footprint", "claims"),
    "role_consequential": (),
    "role_informational": (),
    "section_G": (),
    "section_N": (),
    "section_A": (),
    "item": ("item",),
    "empty": (),
    "claim": ("id", "kind", "channel", "anchor", "systematicity", "text"),
    "kind_P": (),
    "kind_J": (),
    "kind_B": (),
    "finding": ("id", "anchor"),
    "observed": ("tool", "outcome"),
    "relation": RELATION,
    "relation_given": (*RELATION, "claims"),
    "verb_supp": (),
    "verb_att": (),
    "verb_coh": (),
    "verb_contra": (),
    "priority": ("id", "value"),
    "hard_accept": ("id",),
    "hard_reject": ("id",),
    "prohibition": ("claim", "action"),
    "defence": ("id",),
    "kappa": ("channel", "value"),
    "cap": ("channel", "value"),
    "no_caps": (),
    "action_kappa": ("value",),
    "instruction": ("action", "channel"),
    "instruction_authority": ("channel", "value"),
    "defence_strength": ("strength",),
    "oversight": ("gamma", "rho"),
    "protected": ("channel", "value"),
    "revision": ("changes",),
    "no_revision": (),
    "added": ("items",),
    "removed": ("items",),
    "changed": ("items",),
    "change_join": (),
    "item_join": (),
    "question": (),
}


Templates = TemplateSet  # the shape every stratum's families load into


def _check(where: str, value: Any, allowed: tuple[str, ...]) -> str:
    need(isinstance(value, str), where, f"must be a string, got {value!r}")
    try:
        used = placeholders(value)
    except ValueError as exc:
        raise AreError(f"{where}: bad template {value!r}: {exc}") from None
    need(used == set(allowed), where, f"placeholders {sorted(used)} != expected {sorted(allowed)}")
    return str(value)


def parse_templates(data: Any, where: str) -> Templates:
    raw = record(data, where, ("families",), ("families",))
    families = raw["families"]
    need(isinstance(families, dict) and len(families) >= 3, where, "need >= 3 template families")
    parsed: dict[str, dict[str, str]] = {}
    for name, family in families.items():
        at = f"{where}: family {name!r}"
        entries = record(family, at, KEYS, tuple(KEYS))
        parsed[str(name)] = {k: _check(f"{at}.{k}", v, KEYS[k]) for k, v in entries.items()}
    return Templates(parsed)


@lru_cache(maxsize=4)
def load_templates(path: Path = DATA_DIR / "templates.yaml") -> Templates:
    with path.open(encoding="utf-8") as handle:
        return parse_templates(yaml.safe_load(handle), str(path))
