"""Loading the clause set from ``data/clauses/*.yaml``, validating every clause on the way.

Layout: ``common.yaml`` holds the organisation-wide fields (department, role, region) that a
clause includes by name, plus the pool of distractor fields; ``templates.yaml`` holds the
rendering templates (see :mod:`.templates`); every other ``*.yaml`` file is one domain with a
list of clauses. Units come back sorted by ``unit_id`` so their order never depends on the
file system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reasonbench.strata.organizational.parse import (
    ClauseError,
    mapping,
    need,
    parse_field,
    parse_norm,
    parse_scope,
    text,
)
from reasonbench.strata.organizational.schema import Clause, FieldSpec

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "clauses"
SUPPORT_FILES = ("common.yaml", "templates.yaml")
CLAUSE_KEYS = {"id", "title", "subject", "subject_plural", "common", "fields", "rule", "scope"}
ID_PATTERN = re.compile(r"^org-[a-z0-9]+(-[a-z0-9]+)+$")


@dataclass(frozen=True)
class ClauseSet:
    """Every clause plus the organisation-wide and distractor field pools."""

    clauses: tuple[Clause, ...]
    common_fields: tuple[FieldSpec, ...]
    distractor_fields: tuple[FieldSpec, ...]

    def get(self, unit_id: str) -> Clause:
        for clause in self.clauses:
            if clause.unit_id == unit_id:
                return clause
        raise KeyError(f"unknown clause {unit_id!r}")


def read_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except OSError as exc:
        raise ClauseError(f"{path}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise ClauseError(f"{path}: invalid YAML ({exc})") from None


def parse_fields(data: Any, where: str) -> tuple[FieldSpec, ...]:
    need(isinstance(data, list), where, "expected a list of fields")
    fields = tuple(parse_field(f, f"{where}[{i}]") for i, f in enumerate(data))
    names = [f.name for f in fields]
    need(len(set(names)) == len(names), where, f"field names repeat: {names}")
    return fields


def parse_clause(data: Any, where: str, domain: str, common: dict[str, FieldSpec]) -> Clause:
    """One clause; errors name the file, the clause id and the offending field or rule path."""
    need(isinstance(data, dict), where, "a clause must be a mapping")
    unit_id = data.get("id")
    need(isinstance(unit_id, str) and bool(ID_PATTERN.match(unit_id)), where, f"bad id {unit_id!r}")
    where = f"{where} clause {unit_id!r}"
    raw = mapping(data, where, CLAUSE_KEYS, ("id", "title", "subject", "fields", "rule", "scope"))
    included = raw.get("common", [])
    need(isinstance(included, list), f"{where}.common", "expected a list of common field names")
    unknown = [name for name in included if name not in common]
    need(not unknown, f"{where}.common", f"unknown common field(s) {unknown}")
    fields = tuple(common[name] for name in included) + parse_fields(
        raw["fields"], f"{where}.fields"
    )
    names = [f.name for f in fields]
    need(len(set(names)) == len(names), where, f"field names repeat: {names}")
    by_name = {f.name: f for f in fields}
    rule = parse_norm(raw["rule"], f"{where}.rule", by_name)
    scope = parse_scope(raw["scope"], f"{where}.scope", by_name)
    for i, test in enumerate(scope.tests):
        spec = by_name[test.field]
        if test.op == "in":
            everything = set(test.members) == set(spec.values)
        else:
            everything = test.band == (spec.minimum, spec.maximum)
        need(
            not everything,
            f"{where}.scope[{i}]",
            f"test on {test.field!r} admits every value, so it can never refer",
        )
    return Clause(
        unit_id=unit_id,
        domain=domain,
        title=text(raw["title"], f"{where}.title"),
        subject=text(raw["subject"], f"{where}.subject"),
        fields=fields,
        rule=rule,
        scope=scope,
        subject_plural=str(raw.get("subject_plural", "")),
    )


def load_clause_set(directory: Path | str | None = None) -> ClauseSet:
    """Load and validate everything under ``directory`` (default: the repository's data)."""
    return _load(str(Path(directory) if directory is not None else DATA_DIR))


@lru_cache(maxsize=8)
def _load(directory: str) -> ClauseSet:
    root = Path(directory)
    need(root.is_dir(), str(root), "clause directory not found")
    common_path = root / "common.yaml"
    common_raw = mapping(read_yaml(common_path), str(common_path),
                         {"common_fields", "distractor_fields"},
                         ("common_fields", "distractor_fields"))  # fmt: skip
    common = parse_fields(common_raw["common_fields"], f"{common_path} common_fields")
    distractors = parse_fields(common_raw["distractor_fields"], f"{common_path} distractor_fields")
    by_name = {f.name: f for f in common}
    clauses: list[Clause] = []
    for path in sorted(root.glob("*.yaml")):
        if path.name in SUPPORT_FILES:
            continue
        raw = mapping(read_yaml(path), str(path), {"domain", "clauses"}, ("domain", "clauses"))
        domain = text(raw["domain"], f"{path} domain")
        need(isinstance(raw["clauses"], list), str(path), "clauses: expected a list")
        for i, item in enumerate(raw["clauses"]):
            clauses.append(parse_clause(item, f"{path} clauses[{i}]", domain, by_name))
    ids = [c.unit_id for c in clauses]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    need(not repeated, str(root), f"clause id(s) defined twice: {repeated}")
    used = {f.name for c in clauses for f in c.fields}
    clash = sorted(used & {f.name for f in distractors})
    need(not clash, str(common_path), f"distractor field(s) {clash} are also clause fields")
    return ClauseSet(tuple(sorted(clauses, key=lambda c: c.unit_id)), common, distractors)
