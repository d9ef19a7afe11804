"""Rewrite variants of the policy text (``data/invariance/variants.yaml``), validated at load.

A :class:`Variant` is data: a transform family (T1 syntax, T2 lexicon, T4 exception placement,
or one side of a threshold-shift pair), a rule layout, an order and per-template-family template
overrides. :meth:`RewriteSet.wording` resolves it for one template family into a :class:`Wording`
— the complete templates, the layout and the order — which :mod:`.render` turns into text.
Overrides may only touch policy keys (rule and scope); facts, headings and the prompt layout stay
the benchmark's, so a rewrite changes nothing but the wording of the policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.strata.organizational.loader import read_yaml
from reasonbench.strata.organizational.parse import mapping, need, text
from reasonbench.strata.organizational.render import Family
from reasonbench.strata.organizational.rewrites.lexicon import Lexicon, parse_lexicon
from reasonbench.strata.organizational.templates import KEYS, load_templates
from reasonbench.strata.template_set import TemplateSet, placeholders

__all__ = [
    "BLOCKS",
    "CERTIFIED",
    "DATA_DIR",
    "POLICY_KEYS",
    "RewriteSet",
    "Variant",
    "Wording",
    "load_rewrites",
]

DATA_DIR = Path(__file__).resolve().parents[4] / "data" / "invariance"
CERTIFIED = ("T1", "T2", "T4")  # certified-equivalent transform families (principle 1)
TRANSFORMS = (*CERTIFIED, "threshold")
BLOCKS = ("conditions", "deny_precedence", "default", "exceptions", "exception_order")
LEADS: Mapping[str, frozenset[str]] = {
    "exceptions_lead": frozenset({"subject", "subject_plural"}),
    "rules_lead": frozenset({"subject", "subject_plural"}),
}
POLICY_KEYS = frozenset(
    {k for k in KEYS if k.startswith(("pred_", "condition_", "default_", "exception_"))}
    | {"in_joiner", "not_in_joiner", "deny_precedence", "scope"}
)
ALLOWED: Mapping[str, frozenset[str]] = {**{k: KEYS[k] for k in POLICY_KEYS}, **LEADS}
VARIANT_KEYS = {"name", "transform", "layout", "order", "lexicon", "templates"}


@dataclass(frozen=True)
class Variant:
    name: str
    transform: str
    layout: str = "standard"
    order: str = "as_is"
    lexicon: int = 0
    templates: Mapping[str, Mapping[str, str]] | None = None

    @property
    def certified(self) -> bool:
        return self.transform in CERTIFIED


@dataclass(frozen=True)
class Wording:
    """A variant resolved for one template family."""

    variant: str
    transform: str
    family_name: str
    family: Family
    layout: tuple[str, ...]
    reverse: bool


@dataclass(frozen=True)
class RewriteSet:
    templates: TemplateSet
    lexicon: Lexicon
    layouts: Mapping[str, tuple[str, ...]]
    variants: tuple[Variant, ...]

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(
            f"unknown rewrite variant {name!r}; known: {[v.name for v in self.variants]}"
        )

    def certified(self) -> tuple[Variant, ...]:
        return tuple(v for v in self.variants if v.certified)

    def base(self, family: str) -> Wording:
        """The benchmark's own wording (the identity rewrite)."""
        return Wording(
            "base", "base", family, self.templates.family(family), self.layouts["standard"], False
        )

    def wording(self, name: str, family: str) -> Wording:
        variant = self.variant(name)
        base = dict(self.templates.family(family))
        if variant.transform == "T2":
            policy = {k: v for k, v in base.items() if k in POLICY_KEYS}
            base.update(self.lexicon.substitute(family, policy, variant.lexicon))
        base.update((variant.templates or {}).get(family, {}))
        return Wording(
            variant.name,
            variant.transform,
            family,
            base,
            self.layouts[variant.layout],
            variant.order == "reversed",
        )


def _layouts(data: Any, where: str) -> dict[str, tuple[str, ...]]:
    need(
        isinstance(data, dict) and "standard" in data,
        where,
        "need a mapping with a 'standard' layout",
    )
    out = {}
    for name, blocks in data.items():
        at = f"{where}.{name}"
        need(isinstance(blocks, list), at, "expected a list of blocks")
        present = [b for b in blocks if b in BLOCKS]
        need(
            sorted(present) == sorted(BLOCKS), at, f"must list each of {list(BLOCKS)} exactly once"
        )
        unknown = [b for b in blocks if b not in BLOCKS and b not in LEADS]
        need(not unknown, at, f"unknown block(s) {unknown}; allowed {[*BLOCKS, *LEADS]}")
        need(len(set(blocks)) == len(blocks), at, "a block is listed twice")
        out[str(name)] = tuple(str(b) for b in blocks)
    need(
        out["standard"] == BLOCKS,
        f"{where}.standard",
        f"must be {list(BLOCKS)} (the renderer's order)",
    )
    return out


def _overrides(
    data: Any, where: str, families: tuple[str, ...], leads: set[str]
) -> dict[str, dict[str, str]]:
    need(isinstance(data, dict), where, "expected templates per template family")
    need(
        sorted(data) == sorted(families),
        where,
        f"must give templates for exactly {sorted(families)}",
    )
    out: dict[str, dict[str, str]] = {}
    for family, entries in data.items():
        at = f"{where}.{family}"
        need(
            isinstance(entries, dict) and bool(entries),
            at,
            "expected a non-empty mapping of templates",
        )
        for key, template in entries.items():
            need(
                key in ALLOWED,
                f"{at}.{key}",
                f"not a rewritable policy key; allowed {sorted(ALLOWED)}",
            )
            need(isinstance(template, str), f"{at}.{key}", "template must be a string")
            extra = sorted(placeholders(template) - ALLOWED[key])
            need(
                not extra,
                f"{at}.{key}",
                f"unknown placeholder(s) {extra}; allowed {sorted(ALLOWED[key])}",
            )
        lacking = sorted(leads - set(entries))
        need(not lacking, at, f"the layout needs template(s) {lacking}")
        out[str(family)] = {str(k): str(v) for k, v in entries.items()}
    return out


def parse_variant(
    data: Any,
    where: str,
    layouts: Mapping[str, tuple[str, ...]],
    templates: TemplateSet,
    lexicon: Lexicon,
) -> Variant:
    raw = mapping(data, where, VARIANT_KEYS, ("name", "transform"))
    name = text(raw["name"], f"{where}.name")
    where = f"{where} ({name})"
    transform = raw["transform"]
    need(transform in TRANSFORMS, where, f"transform must be one of {list(TRANSFORMS)}")
    layout = raw.get("layout", "standard")
    need(layout in layouts, where, f"unknown layout {layout!r}; known {sorted(layouts)}")
    order = raw.get("order", "as_is")
    need(order in ("as_is", "reversed"), where, "order must be as_is or reversed")
    index = raw.get("lexicon", 0)
    families = templates.names
    if transform == "T2":
        need(
            "templates" not in raw,
            where,
            "a T2 variant is generated from the lexicon: no templates",
        )
        depth = min(lexicon.depth(f) for f in families)
        need(
            isinstance(index, int) and 1 <= index <= depth, where, f"lexicon must be in 1..{depth}"
        )
        return Variant(name, transform, layout, order, index)
    need(index == 0, where, "only T2 variants take a lexicon index")
    leads = {b for b in layouts[layout] if b in LEADS}
    overrides = None
    if "templates" in raw:
        overrides = _overrides(raw["templates"], f"{where}.templates", families, leads)
    else:
        need(not leads, where, f"layout {layout!r} needs templates for {sorted(leads)}")
        need(order != "as_is" or layout != "standard", where, "a variant must change something")
    return Variant(name, transform, layout, order, 0, overrides)


def load_rewrites(
    directory: Path | str | None = None, clause_dir: Path | str | None = None
) -> RewriteSet:
    """Load and validate ``variants.yaml`` and ``lexicon.yaml`` against the clause templates."""
    root = Path(directory) if directory is not None else DATA_DIR
    templates = load_templates(clause_dir)
    policy = {
        f: {k: v for k, v in templates.family(f).items() if k in POLICY_KEYS}
        for f in templates.names
    }
    lexicon_path = root / "lexicon.yaml"
    lexicon = parse_lexicon(read_yaml(lexicon_path), str(lexicon_path), policy)
    path = root / "variants.yaml"
    raw = mapping(read_yaml(path), str(path), {"layouts", "variants"}, ("layouts", "variants"))
    layouts = _layouts(raw["layouts"], f"{path} layouts")
    need(isinstance(raw["variants"], list), f"{path} variants", "expected a list")
    variants = tuple(
        parse_variant(v, f"{path} variants[{i}]", layouts, templates, lexicon)
        for i, v in enumerate(raw["variants"])
    )
    names = [v.name for v in variants]
    need(len(set(names)) == len(names), str(path), f"variant names repeat: {names}")
    for side in ("strict", "lax"):
        need(side in names, str(path), f"the threshold-shift pair needs a {side!r} variant")
    return RewriteSet(templates, lexicon, layouts, variants)
