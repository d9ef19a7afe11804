"""No dispatch on registered names (issue 32, §3): nothing in ``reasonbench/`` compares a value
against the name of a registered stratum, target, control kind, metric, judge, baseline, certify
kind, backbone source (or any other registry's entry) to decide what to do. Such code is asked of
the registered object instead; a new entry would otherwise be silently left out of the branch.

Every registry is found in the source (``NAME: Registry[...] = Registry(...)``), so one added
later is scanned too, with every name registered once the packages that register them are
imported. A line is a hit when it compares with ``==``/``!=``, tests membership in a literal
tuple, list or set, or ``case``-matches a quoted registered name."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

from reasonbench.registry import Registry

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "reasonbench"
DEFINITION = re.compile(r"^([A-Z_]+): Registry\[.*\] = Registry\(", re.MULTILINE)
# the packages whose imports register the built-in entries (their __init__ imports the modules)
REGISTERING = (
    "reasonbench.analysis",
    "reasonbench.baselines",
    "reasonbench.certify.builtin",
    "reasonbench.controls",
    "reasonbench.judges",
    "reasonbench.targets",
)

# Registries that are not kinds of extension: the command line's own machinery, whose names are
# command names and config keys ("train", "receipt"), words that are also split and field names
# in the data. Each discovered registry is either scanned or listed here.
NOT_KINDS = {
    "reasonbench.cli.schemas:SCHEMAS": "a command's config schema, by command name",
    "reasonbench.cli.schemas:JUDGE_ARGS": "a judge factory's argument schema, by factory name",
    "reasonbench.cli.schemas:KEY_READING": "how a config key is read, by key",
}

# (file relative to reasonbench/, the name compared): why it is not dispatch. A new hit is fixed
# by asking the registered object, or listed here with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    # the loop that registers the text formats of `reasonbench compare`
    ("reports/compare/formats.py", "md"): "registers FORMATS entries, names them once",
    # the three files every table writes; `compare` reads them by the same suffixes
    ("reports/render.py", "md"): "the suffixes of the files a table writes (data, not a kind)",
    # roles of the paper's role map (conf/methods/paper.yaml, data/paper_figures.yaml keys), which
    # coincide with the baseline kind `tfidf`; the note compares the paper's two TF-IDF runs
    ("reports/tables/methods.py", "tfidf"): "paper role names, not the baseline kind",
    # data/paper_figures.yaml gives subgroup differences per stratum only: other subgroup families
    # (receipt size, operator) have no paper figure to stand beside
    ("reports/tables/subgroups.py", "stratum"): "the paper's figures exist for one family",
}


def registries() -> Iterator[tuple[str, Registry[object]]]:
    """Every registry defined in reasonbench/, as ``module:NAME`` and the object."""
    for path in sorted(SOURCE.rglob("*.py")):
        for name in DEFINITION.findall(path.read_text("utf-8")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(
                ".__init__"
            )
            yield f"{module}:{name}", getattr(importlib.import_module(module), name)


def registered_names() -> dict[str, list[str]]:
    for package in REGISTERING:
        importlib.import_module(package)
    names: dict[str, list[str]] = {}
    for where, registry in registries():
        if where in NOT_KINDS:
            continue
        for name in registry.names():
            names.setdefault(name, []).append(where)
    return names


def _patterns(names: list[str]) -> list[re.Pattern[str]]:
    quoted = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    name = rf"""(?P<q>["'])(?P<name>{quoted})(?P=q)"""
    return [
        re.compile(rf"(?:==|!=)\s*{name}"),
        re.compile(rf"{name}\s*(?:==|!=)"),
        re.compile(rf"\bcase\s+{name}"),
        # `x in ("a", "b")`, `not in [...]`, `in {...}`: the literal holds a registered name
        re.compile(rf"\bin\s*[(\[{{][^)\]}}]*?{name}"),
    ]


def hits(names: list[str], source: Path = SOURCE) -> list[tuple[str, int, str, str]]:
    """(file, line number, name, line) of each comparison with a quoted name under ``source``."""
    patterns = _patterns(names)
    found = []
    for path in sorted(source.rglob("*.py")):
        rel = path.relative_to(source).as_posix()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
            for pattern in patterns:
                for match in pattern.finditer(code):
                    found.append((rel, number, match.group("name"), line.strip()))
    return sorted(set(found))


def test_every_registry_is_found_with_its_builtin_names() -> None:
    found = dict(registries())
    assert set(NOT_KINDS) <= set(found)
    names = registered_names()
    scanned = {where for places in names.values() for where in places}
    for kind in ("strata.registry:STRATA", "targets.base:TARGETS", "controls.base:CONTROL_KINDS",
                 "analysis.metrics.base:METRICS", "judges.base:JUDGES", "baselines:BASELINES",
                 "certify.plugins:KINDS", "models.backbone:BACKBONE_SOURCES"):  # fmt: skip
        assert f"reasonbench.{kind}" in scanned, kind
    for builtin in ("organizational", "cube", "inverse", "majority", "tfidf", "tiny", "hf"):
        assert builtin in names, builtin


def test_the_scan_finds_each_form_of_dispatch(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        'if source == "tiny":\n'
        "    pass\n"
        "elif 'hf' != source:  # a comment: == 'cube' is not code\n"
        "    pass\n"
        'ok = kind not in ("majority", "other")\n'
        "match kind:\n"
        '    case "inverse":\n'
        "        pass\n"
        '# if x == "logical": a comment only\n'
        'label = "tiny"  # an assignment is not a comparison\n'
    )
    found = [(rel, n, name) for rel, n, name, _ in hits(["tiny", "hf", "majority", "inverse",
                                                         "cube", "logical"], tmp_path)]  # fmt: skip
    assert found == [
        ("pkg/mod.py", 1, "tiny"),
        ("pkg/mod.py", 3, "hf"),
        ("pkg/mod.py", 5, "majority"),
        ("pkg/mod.py", 7, "inverse"),
    ]


def test_no_code_dispatches_on_a_registered_name() -> None:
    names = registered_names()
    found = hits(list(names))
    unexplained = [
        f"reasonbench/{rel}:{number}: {name!r} ({', '.join(names[name])}): {line}"
        for rel, number, name, line in found
        if (rel, name) not in ALLOWED
    ]
    assert not unexplained, "dispatch on registered names:\n" + "\n".join(unexplained)
    # an allowance that no longer matches anything is removed, not kept
    stale = set(ALLOWED) - {(rel, name) for rel, _, name, _ in found}
    assert not stale, stale
