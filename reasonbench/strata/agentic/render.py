"""Rendering an agentic transition as prompt text in one template family and one source order.

Each component becomes a list of keyed items (a claim, a relation, a threshold...). A section
lists the OLD component's items, then one revision line: the items the revised component added,
removed, or changed (same key, other content). All wording comes from ``data/are/templates.yaml``;
every number the adjudicator uses is shown, so the verdict can be computed from the prompt.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from reasonbench.are.specs import ActionSpec, ClaimSpec, RelationSpec
from reasonbench.core.sources import GNA
from reasonbench.strata.agentic.components import Authority, Grounds, Norms
from reasonbench.strata.base import Rendering, Transition

Family = Mapping[str, str]
Item = tuple[str, str]  # (identity key, rendered text)


def num(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:g}"


def _claim(c: ClaimSpec, t: Family) -> Item:
    kind = t[f"kind_{c.kind}"]
    text = t["claim"].format(
        id=c.id,
        kind=kind,
        channel=c.channel,
        anchor=num(c.anchor),
        systematicity=num(c.systematicity),
        text=c.text,
    )
    return f"claim:{c.id}", text


def _relation(r: RelationSpec, t: Family) -> Item:
    fields = dict(source=r.source, verb=t[f"verb_{r.type}"], target=r.target, strength=r.strength)
    if r.given:
        text = t["relation_given"].format(channel=r.channel, claims=", ".join(r.given), **fields)
    else:
        text = t["relation"].format(channel=r.channel, **fields)
    return f"rel:{r.source}:{r.type}:{r.target}:{r.channel}:{','.join(r.given)}", text


def grounds_items(g: Grounds, t: Family) -> list[Item]:
    out = [(f"obs:{tool}", t["observed"].format(tool=tool, outcome=o)) for tool, o in g.observed]
    out += [_claim(c, t) for c in g.claims]
    out += [(f"find:{u}", t["finding"].format(id=u, anchor=num(a))) for u, a in g.findings]
    return out + [_relation(r, t) for r in g.asserted]


def norms_items(n: Norms, t: Family) -> list[Item]:
    out = [_claim(c, t) for c in n.claims] + [_relation(r, t) for r in n.relations]
    out += [(f"eta:{u}", t["priority"].format(id=u, value=num(e))) for u, e in n.priorities]
    out += [
        (f"hard:{u}", t["hard_accept" if s > 0 else "hard_reject"].format(id=u))
        for u, s in n.non_negotiable
    ]
    out += [(f"ban:{h}:{a}", t["prohibition"].format(claim=h, action=a)) for h, a in n.prohibitions]
    if n.defence is not None:
        out.append(("defence", t["defence"].format(id=n.defence)))
    return out


def authority_items(a: Authority, t: Family) -> list[Item]:
    p, o = a.profile, a.oversight
    out = [(f"kappa:{c}", t["kappa"].format(channel=c, value=num(k))) for c, k in p.stubbornness]
    caps = [(f"cap:{c}", t["cap"].format(channel=c, value=num(w))) for c, w in p.caps]
    out += caps or [("cap:none", t["no_caps"])]
    out.append(("kappa_A", t["action_kappa"].format(value=num(p.action_stubbornness))))
    out += [(f"instr:{x}", t["instruction"].format(action=x, channel=c)) for x, c in p.instructions]
    out += [
        (f"auth:{c}", t["instruction_authority"].format(channel=c, value=num(m)))
        for c, m in p.authority
    ]
    out.append(("defence", t["defence_strength"].format(strength=p.defence)))
    out.append(("oversight", t["oversight"].format(gamma=num(o.gamma_min), rho=num(o.rho_max))))
    out += [(f"prot:{c}", t["protected"].format(channel=c, value=num(v))) for c, v in o.protected]
    return out


def items_of(component: object, t: Family) -> list[Item]:
    """The keyed items of a G, N or A component."""
    if isinstance(component, Grounds):
        return grounds_items(component, t)
    if isinstance(component, Norms):
        return norms_items(component, t)
    if isinstance(component, Authority):
        return authority_items(component, t)
    raise TypeError(f"not an agentic component: {type(component).__name__}")


def revision(old: list[Item], new: list[Item], t: Family) -> str:
    before, after = dict(old), dict(new)
    join = t["item_join"]
    added = [text for key, text in new if key not in before]
    removed = [text for key, text in old if key not in after]
    changed = [text for key, text in new if key in before and before[key] != text]
    changes = [
        t[name].format(items=join.join(group))
        for name, group in (("added", added), ("removed", removed), ("changed", changed))
        if group
    ]
    return (
        t["revision"].format(changes=t["change_join"].join(changes))
        if changes
        else t["no_revision"]
    )


def _action(a: ActionSpec, t: Family) -> str:
    role = t["role_consequential" if a.consequential else "role_informational"]
    fields = dict(id=a.id, text=a.text, role=role, footprint=num(a.footprint))
    if a.requires:
        return t["action_requires"].format(claims=", ".join(a.requires), **fields)
    return t["action"].format(**fields)


def render(
    transition: Transition,
    task: str,
    actions: tuple[ActionSpec, ...],
    family: Family,
    family_name: str,
    source_order: tuple[str, ...],
) -> Rendering:
    if sorted(source_order) != sorted(GNA):
        raise ValueError(f"source_order must be a permutation of {GNA}, got {source_order}")
    t = family
    lines = [t["intro"], t["task"].format(task=task), t["actions_title"]]
    lines += [t["item"].format(item=_action(a, t)) for a in actions]
    for source in source_order:
        old = items_of(transition.old[source], t)
        new = items_of(transition.new[source], t)
        lines.append(t[f"section_{source}"])
        lines += [t["item"].format(item=text) for _, text in old] or [t["empty"]]
        lines.append(revision(old, new, t))
    lines.append(t["question"])
    return Rendering("\n".join(lines), family_name, source_order)
