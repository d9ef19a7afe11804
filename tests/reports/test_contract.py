"""The reproducibility contract (reasonbench/reports/compare/contract.py and fits.py,
docs/reproducibility.md): every committed output has a clause, the page shows the contract as the
code holds it, the bytes class counts any difference, and a discontinuous fit is compared by its
effect: moved by noise below the tolerance it agrees, moved by a real change it does not."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reasonbench.analysis.calibration import CalibrationMaps, fit_report
from reasonbench.analysis.jsontypes import to_json
from reasonbench.analysis.selective import Decision, selective_curve
from reasonbench.io import OutputDir
from reasonbench.reports.compare import Tolerance, clause_for, compare
from reasonbench.reports.compare.contract import contract_table

ROOT = Path(__file__).resolve().parents[2]
TOL = Tolerance(rtol=1e-5, atol=1e-9)
DIGESTS = ["*.reasonbench-outputs.json", "*.meta.json:adapter_sha256"]


def test_every_committed_output_has_a_clause() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "results"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(listed) > 50
    unclaimed = [p for p in listed if clause_for(p.removeprefix("results/")) is None]
    assert unclaimed == []


def test_the_page_shows_the_contract_as_the_code_holds_it() -> None:
    page = (ROOT / "docs" / "reproducibility.md").read_text(encoding="utf-8")
    assert contract_table() in page


def results(root: Path, table: str, png: bytes, ece: float) -> Path:
    with OutputDir(root, "analyze") as out:
        out.write_text("tables/t.md", table)
        out.write_bytes("figures/f.png", png)
        out.write_json("metrics.json", {"methods": {"m": {"ece": ece}}})
    return root


def test_the_bytes_class_counts_any_difference_and_the_tolerance_class_does_not(
    tmp_path: Path,
) -> None:
    left = results(tmp_path / "a", "| m | 43.12 |\n", b"\x89PNG-a", 0.12127648420545192)
    right = results(tmp_path / "b", "| m | 43.13 |\n", b"\x89PNG-b", 0.12127648420545192 * 1.000001)
    result = compare(left, right, TOL, DIGESTS)
    assert [f.line(f"differs ({r.guarantee})") for r in result.files for f in r.beyond] == [
        "differs (bytes): figures/f.png:bytes: left=6 bytes, sha256 "
        + result.files[1].beyond[0].left.split("sha256 ")[1]
        + ", right=6 bytes, sha256 "
        + result.files[1].beyond[0].right.split("sha256 ")[1],
        'differs (bytes): tables/t.md:line 1: left="| m | 43.12 |", right="| m | 43.13 |"',
    ]
    assert "metrics.json (tolerance: 1 numbers within rtol/atol)" in result.summary()


# ---- discontinuous fits ----------------------------------------------------------------------


def committed_fit() -> tuple[dict[str, Any], list[str]]:
    """The committed metrics.json and the path (as keys) of its first isotonic reliability fit
    with a bin that holds exactly one record."""
    metrics = json.loads((ROOT / "results" / "metrics.json").read_text(encoding="utf-8"))
    for method, entry in metrics["methods"].items():
        for seed, seed_entry in entry["seeds"].items():
            for source, calibration in seed_entry["calibration"].items():
                fit = calibration["maps"].get("isotonic", {})
                if any(b["count"] == 1 for b in fit.get("bins", [])):
                    return metrics, ["methods", method, "seeds", seed, "calibration", source,
                                     "maps", "isotonic"]  # fmt: skip
    raise AssertionError("no isotonic fit with a one-record bin in results/metrics.json")


def at(tree: Any, keys: list[str]) -> Any:
    for key in keys:
        tree = tree[key]
    return tree


def two_metrics(tmp_path: Path, left: Any, right: Any) -> tuple[Path, Path]:
    a, b = tmp_path / "a" / "metrics.json", tmp_path / "b" / "metrics.json"
    for path, tree in ((a, left), (b, right)):
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(tree), encoding="utf-8")
    return a, b


def test_the_bin_that_moved_on_an_amd_cpu_is_tolerated_by_its_effect(tmp_path: Path) -> None:
    # issue 40: a one-record isotonic bin moved 1.2e-4 relative (0.6356345989568384 ->
    # 0.6357089053523062) while the confidences feeding it moved about 1e-5
    left, keys = committed_fit()
    right = copy.deepcopy(left)
    one = next(b for b in at(right, keys)["bins"] if b["count"] == 1)
    one["confidence"] *= 0.6357089053523062 / 0.6356345989568384
    a, b = two_metrics(tmp_path, left, right)
    result = compare(a, b, TOL)
    assert result.agree, result.lines()
    (moved,) = result.files[0].moved
    assert moved.startswith("metrics.json:methods.") and moved.endswith(".maps.isotonic")
    assert "fits by effect within fit_atol: metrics.json:methods." in result.summary()
    # a plain rtol on the raw floats is what failed on that machine
    assert not compare(a, b, TOL, fit_atol=0.0).agree


def test_a_real_change_of_a_fit_is_named(tmp_path: Path) -> None:
    left, keys = committed_fit()
    right = copy.deepcopy(left)
    bins = [b for b in at(right, keys)["bins"] if b["count"] >= 20]
    bins[0]["count"] -= 10  # 10 records move to the next bin with records: a few % of them
    bins[1]["count"] += 10
    a, b = two_metrics(tmp_path, left, right)
    lines = compare(a, b, TOL).lines()
    assert any(
        "cumulative (share of records, fit_atol=0.01)" in line and line.startswith("differs")
        for line in lines
    ), lines


def decisions(
    values: list[float], outcomes: list[bool], noise: dict[float, float]
) -> list[Decision]:
    return [
        Decision(True, hit, hit, v * (1 + noise[v]), "s")
        for v, hit in zip(values, outcomes, strict=True)
    ]


def analysed(cal: list[Decision], test: list[Decision]) -> dict[str, Any]:
    """The calibration and selective entries of one method as analyze writes them."""
    maps = CalibrationMaps("isotonic").fit(cal)
    fits = {
        "raw": fit_report("raw", None, "s", test, len(cal), 10),
        "maps": {"isotonic": fit_report("isotonic", maps, "s", test, len(cal), 10)},
    }
    seed = {
        "calibration": {"s": to_json(fits)},
        "selective": {"raw": {"s": [r.to_json() for r in selective_curve(cal, test)]}},
    }
    return {"methods": {"m": {"seeds": {"0": seed}}}}


def near(values: list[float], rng: random.Random, count: int) -> list[float]:
    """``count`` values placed within rtol of a grid value or of a bin edge: decisions that the
    noise can flip (a tie broken, an edge crossed, a threshold passed)."""
    anchors = [*values, *(i / 10 for i in range(1, 10))]
    return [rng.choice(anchors) * (1 + rng.uniform(-TOL.rtol, TOL.rtol)) for _ in range(count)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 60), min_size=10, max_size=10).filter(lambda c: sum(c) >= 100),
    st.integers(0, 8),
    st.data(),
)
def test_a_fit_agrees_while_at_most_fit_atol_of_its_records_cross_an_edge(
    counts: list[int], edge: int, data: st.DataObject
) -> None:
    """The rule itself: records that cross one bin edge (their value just below it on one side,
    just above on the other) agree up to fit_atol of the records, and are named beyond it."""
    total = sum(counts)
    assume(counts[edge] > 0)
    limit = int(0.01 * total)
    k = data.draw(st.integers(1, counts[edge]))
    high = (edge + 1) / 10

    def fit(moved: int) -> dict[str, Any]:
        bins = []
        for i, n in enumerate(counts):
            n_here = n - moved if i == edge else n + moved if i == edge + 1 else n
            # the moved records sit at the edge: confidence ~ high, half of them right
            mass = (n - (moved if i == edge else 0)) * (i + 0.5) / 10
            conf_mass = mass + (moved * high if i == edge + 1 else 0)
            acc = n * 0.5 + (moved * 0.5 if i == edge + 1 else -moved * 0.5 if i == edge else 0)
            bins.append(
                {"low": i / 10, "high": (i + 1) / 10, "count": n_here,
                 "confidence": conf_mass / n_here if n_here else None,
                 "accuracy": acc / n_here if n_here else None}
            )  # fmt: skip
        ece = sum(
            b["count"] / total * abs((b["accuracy"] or 0) - (b["confidence"] or 0)) for b in bins
        )
        return {"calibration": {"s": {"raw": {"bins": bins, "ece": ece, "scale": "raw"}}}}

    left, right = ({"methods": {"m": {"seeds": {"0": fit(m)}}}} for m in (0, k))
    with tempfile.TemporaryDirectory() as root:
        result = compare(*two_metrics(Path(root), left, right), TOL)
    assert result.agree == (k <= limit), result.lines()
    if k <= limit:
        assert result.files[0].moved == ['metrics.json:methods.m.seeds["0"].calibration.s.raw']


def realistic_noise(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """One method's fits on 100-300 calibration and test records with confidences on a grid
    (ties kept), one record in two hundred placed within rtol of another or of a bin edge, then
    every distinct confidence moved by its own relative noise up to rtol (equal inputs stay
    equal: the same computation gives the same float)."""
    rng = random.Random(seed)
    grid = [k / 1000 for k in range(1, 1000) if k % 100]
    n = rng.randint(100, 300)
    cal = [rng.choice(grid) for _ in range(n)]
    test = [rng.choice(grid) for _ in range(n)]
    cal += near(cal, rng, n // 200)
    test += near(cal, rng, n // 200)
    hits = [rng.random() < 0.5 for _ in cal], [rng.random() < 0.5 for _ in test]
    exact = {v: 0.0 for v in {*cal, *test}}
    noisy = {v: rng.uniform(-TOL.rtol, TOL.rtol) for v in exact}
    return (
        analysed(decisions(cal, hits[0], exact), decisions(test, hits[1], exact)),
        analysed(decisions(cal, hits[0], noisy), decisions(test, hits[1], noisy)),
    )


@pytest.mark.parametrize("seed", range(0, 500, 25))
def test_realistic_noise_below_the_tolerance_moves_no_fit_beyond_its_rule(seed: int) -> None:
    """Measured over 500 such draws (docs/reproducibility.md): fits moved in about half of them,
    none beyond the rule; with one record in a hundred near a decision, 8 of 500 were (a near-tie
    that re-pools an isotonic block across a bin edge). Twenty of the draws, kept as a check."""
    left, right = realistic_noise(seed)
    with tempfile.TemporaryDirectory() as root:
        result = compare(*two_metrics(Path(root), left, right), TOL)
    assert result.agree, result.lines()
