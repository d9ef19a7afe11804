"""The rewrite data (variants.yaml, lexicon.yaml) is validated, with errors that say where."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from reasonbench.strata.organizational.parse import ClauseError
from reasonbench.strata.organizational.rewrites.wording import DATA_DIR, POLICY_KEYS, load_rewrites


def test_shipped_rewrites_load() -> None:
    rs = load_rewrites()
    transforms = {v.transform for v in rs.certified()}
    assert transforms == {"T1", "T2", "T4"}
    for t in transforms:  # several variants per transform family
        assert sum(v.transform == t for v in rs.certified()) >= 2
    assert "fact" not in POLICY_KEYS and "pred_le" in POLICY_KEYS and "scope" in POLICY_KEYS
    memo = rs.wording("T2-lexicon-1", "memo").family
    assert memo["condition_deny"] == "Refuse if {preds}."
    assert memo["fact"] == rs.templates.family("memo")["fact"]  # facts are never reworded


Edit = Callable[[dict[str, Any], dict[str, Any]], None]


def broken(tmp_path: Path, edit: Edit) -> Path:
    root = tmp_path / "invariance"
    shutil.copytree(DATA_DIR, root)
    variants = yaml.safe_load((root / "variants.yaml").read_text())
    lexicon = yaml.safe_load((root / "lexicon.yaml").read_text())
    edit(variants, lexicon)
    (root / "variants.yaml").write_text(yaml.safe_dump(variants))
    (root / "lexicon.yaml").write_text(yaml.safe_dump(lexicon))
    return root


def variant(v: dict[str, Any], name: str) -> dict[str, Any]:
    return next(x for x in v["variants"] if x["name"] == name)


CASES: list[tuple[Edit, str]] = [
    (
        lambda v, lx: lx["families"]["memo"][0]["phrases"].__setitem__(0, "sanction if"),
        "is not in the templates",
    ),
    (
        lambda v, lx: lx["families"]["memo"][0].__setitem__("phrases", ["approve if", "grant if"]),
        "need >= 3 phrases",
    ),
    (lambda v, lx: lx["families"]["memo"][1]["phrases"].__setitem__(2, "grant if"), "used twice"),
    (
        lambda v, lx: variant(v, "T1-voice")["templates"]["memo"].__setitem__("fact", "{label}"),
        "not a rewritable policy key",
    ),
    (
        lambda v, lx: variant(v, "T1-voice")["templates"]["memo"].__setitem__(
            "scope", "{tests} {title}"
        ),
        "unknown placeholder",
    ),
    (
        lambda v, lx: variant(v, "T1-voice")["templates"].pop("legal"),
        "must give templates for exactly",
    ),
    (lambda v, lx: variant(v, "T2-lexicon-1").__setitem__("lexicon", 5), "lexicon must be in"),
    (
        lambda v, lx: variant(v, "T4-leading")["templates"]["memo"].pop("rules_lead"),
        "needs template",
    ),
    (lambda v, lx: v["layouts"]["inline"].remove("default"), "exactly once"),
    (lambda v, lx: v["variants"].remove(variant(v, "lax")), "needs a 'lax' variant"),
    (lambda v, lx: variant(v, "T1-reorder").__setitem__("order", "as_is"), "must change something"),
]


@pytest.mark.parametrize(("edit", "message"), CASES)
def test_broken_rewrite_data_is_refused(tmp_path: Path, edit: Edit, message: str) -> None:
    with pytest.raises(ClauseError, match=message):
        load_rewrites(broken(tmp_path, edit))
