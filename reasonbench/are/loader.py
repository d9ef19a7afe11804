"""Loading and validating case-family files (``data/are/*.yaml``) into :class:`CaseFamily`.

Beyond the shape of every record (see :mod:`.specs`), cross-references are checked by
:mod:`.references`. Errors name the file and the record.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reasonbench.are.cases import CaseFamily, Injection, Outcome, Tool
from reasonbench.are.oversight import Thresholds
from reasonbench.are.profile import Profile
from reasonbench.are.references import check_references
from reasonbench.are.specs import ActionSpec, ClaimSpec, RelationSpec
from reasonbench.are.validate import AreError, ident, items, need, number, record, text, unique

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "are"
FAMILIES = ("consumer", "hiring")

TOP = {
    "name", "title", "task", "surface", "actions", "claims", "background", "evidence",
    "relations", "asserted", "non_negotiable", "prohibitions", "defence", "profile", "oversight",
    "tools", "optional", "injections", "distractors",
}  # fmt: skip
REQUIRED = ("name", "title", "task", "actions", "claims", "relations", "profile", "oversight")
OPTIONAL = {"relations", "prohibitions", "hard", "stances", "authority_levels"}


def _listed(data: Any, where: str, parse: Any) -> tuple[Any, ...]:
    return tuple(parse(x, f"{where}[{i}]") for i, x in enumerate(items(data, where)))


def _table(data: Any, where: str) -> dict[str, Any]:
    """A free-keyed mapping (``null`` reads as empty)."""
    data = {} if data is None else data
    return record(data, where, set(data) if isinstance(data, dict) else ())


def _pair(data: Any, where: str) -> tuple[str, str]:
    row = items(data, where)
    need(len(row) == 2, where, "expected [claim, action]")
    return ident(row[0], where), ident(row[1], where)


def _outcome(data: Any, where: str) -> Outcome:
    raw = record(data, where, ("name", "p", "reveals", "findings"), ("name", "p"))
    name = ident(raw["name"], f"{where}.name")
    findings = _table(raw.get("findings"), f"{where}.findings")
    return Outcome(
        name,
        number(raw["p"], f"{where}.p", 0.0, 1.0),
        tuple(ident(v, f"{where}.reveals") for v in items(raw.get("reveals", []), where)),
        tuple(
            sorted((str(k), number(v, f"{where}.findings.{k}", -1, 1)) for k, v in findings.items())
        ),
    )


def _tool(data: Any, where: str) -> Tool:
    raw = record(data, where, ("name", "text", "cost", "outcomes"), ("name", "text", "outcomes"))
    name = ident(raw["name"], f"{where}.name")
    where = f"{where} ({name})"
    outcomes = _listed(raw["outcomes"], f"{where}.outcomes", _outcome)
    need(bool(outcomes), where, "a tool needs at least one outcome")
    need(abs(sum(o.p for o in outcomes) - 1) < 1e-9, where, "outcome probabilities must sum to 1")
    unique([o.name for o in outcomes], f"{where}.outcomes")
    cost = number(raw.get("cost", 0.0), f"{where}.cost", 0.0)
    return Tool(name, text(raw["text"], f"{where}.text"), cost, outcomes)


def _injection(data: Any, where: str) -> Injection:
    raw = record(data, where, ("claim", "asserts"), ("claim", "asserts"))
    claim = ClaimSpec.from_json(raw["claim"], f"{where}.claim")
    return Injection(claim, _listed(raw["asserts"], f"{where}.asserts", RelationSpec.from_json))


def _stances(data: Any, where: str) -> tuple[tuple[str, tuple[tuple[str, float], ...]], ...]:
    out = []
    for name, priorities in _table(data, where).items():
        at = f"{where}.{name}"
        table = _table(priorities, at)
        out.append(
            (
                ident(name, at),
                tuple(sorted((str(u), number(e, f"{at}.{u}", 0.0)) for u, e in table.items())),
            )
        )
    return tuple(out)


def parse_family(data: Any, where: str) -> CaseFamily:
    """A validated family; ``where`` (the file name) starts every error message."""
    raw = record(data, where, TOP, REQUIRED)
    opt = record(raw.get("optional") or {}, f"{where}.optional", OPTIONAL)
    hard = _table(raw.get("non_negotiable"), f"{where}.non_negotiable")
    surface = _table(raw.get("surface"), f"{where}.surface")
    levels = items(opt.get("authority_levels", [1.0]), f"{where}.optional.authority_levels")
    claims = ClaimSpec.from_json
    family = CaseFamily(
        name=ident(raw["name"], f"{where}.name"),
        title=text(raw["title"], f"{where}.title"),
        task=text(raw["task"], f"{where}.task"),
        surface=tuple(
            (str(k), tuple(str(v) for v in items(vs, f"{where}.surface.{k}")))
            for k, vs in surface.items()
        ),
        actions=_listed(raw["actions"], f"{where}.actions", ActionSpec.from_json),
        claims=_listed(raw["claims"], f"{where}.claims", claims),
        background=_listed(raw.get("background", []), f"{where}.background", claims),
        evidence=_listed(raw.get("evidence", []), f"{where}.evidence", claims),
        relations=_listed(raw["relations"], f"{where}.relations", RelationSpec.from_json),
        asserted=_listed(raw.get("asserted", []), f"{where}.asserted", RelationSpec.from_json),
        non_negotiable=tuple(
            sorted(
                (str(u), int(number(s, f"{where}.non_negotiable.{u}", -1, 1)))
                for u, s in hard.items()
            )
        ),
        prohibitions=_listed(raw.get("prohibitions", []), f"{where}.prohibitions", _pair),
        defence=None if raw.get("defence") is None else ident(raw["defence"], f"{where}.defence"),
        profile=Profile.from_json(raw["profile"], f"{where}.profile"),
        oversight=Thresholds.from_json(raw["oversight"], f"{where}.oversight"),
        tools=_listed(raw.get("tools", []), f"{where}.tools", _tool),
        optional_relations=_listed(
            opt.get("relations", []), f"{where}.optional.relations", RelationSpec.from_json
        ),
        optional_prohibitions=_listed(
            opt.get("prohibitions", []), f"{where}.optional.prohibitions", _pair
        ),
        hard_candidates=tuple(
            ident(h, f"{where}.optional.hard") for h in items(opt.get("hard", []), where)
        ),
        stances=_stances(opt.get("stances"), f"{where}.optional.stances"),
        authority_levels=tuple(
            number(v, f"{where}.optional.authority_levels", 0.0) for v in levels
        ),
        injections=_listed(raw.get("injections", []), f"{where}.injections", _injection),
        distractors=_listed(raw.get("distractors", []), f"{where}.distractors", claims),
    )
    check_references(family, where)
    return family


def load_family_file(path: Path) -> CaseFamily:
    try:
        with path.open(encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except (OSError, yaml.YAMLError) as exc:
        raise AreError(f"{path}: cannot read ({exc})") from None
    return parse_family(data, str(path))


@lru_cache(maxsize=8)
def load_family(name: str, data_dir: Path = DATA_DIR) -> CaseFamily:
    """A case family by name (``consumer``, ``hiring``), loaded once."""
    return load_family_file(data_dir / f"{name}.yaml")
