"""Discontinuous fits, compared by their effect (docs/reproducibility.md, "Discontinuous fits").

An isotonic map pools calibration points by the order of their confidences; a reliability bin
counts the values on one side of an edge; a selective threshold is the confidence of one record.
Each is a step function of its inputs: a confidence that moves by 1e-5 (another CPU's BLAS) across
a tie, an edge or a threshold moves a bin's mean by 1.2e-4 relative, a count by one. A relative
tolerance on those raw floats cannot hold, and a wider one everywhere would hide real changes.

So each such subtree is compared by what it does to the records, as a share of them, within an
absolute ``fit_atol`` (default 0.01: one record in a hundred):

* **reliability bins** (``calibration.…``, a dict with ``bins``): the cumulative share of the
  records, of their calibrated confidence and of their correct answers up to each bin edge. A
  record that crosses an edge moves one cumulative share by 1/N; a pooling that shifts a level by
  δ moves the confidence share by at most δ. The ECE is what the bins imply (a sum of per-bin
  gaps, which adds up their moves): on each side it must be the ECE of that side's bins, within
  the tolerance, and is otherwise compared through them.
* **operating points** (``selective.…`` and ``two_plane``, lists of points): each rate (coverage,
  reason debt, recall, execution share) within ``fit_atol``, each count as a share of its
  denominator; the threshold itself is a parameter whose meaning is its effect, and counts that
  follow another compared one (``accepted`` follows coverage) are not compared again.

Everything else in the subtree (the bin edges, the number of points, the scale, the target
coverages, the routes) is compared exactly. A rule is a registered :class:`Fit`, matched by the
file's name and the JSON path (globs; ``*`` spans dots) and by the subtree's shape.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reasonbench.registry import Registry
from reasonbench.reports.compare.walk import Walk, is_number, json_path, show

__all__ = ["FITS", "Fit", "FitRule", "fit_rule"]

Rule = Callable[[Walk, str, Any, Any], None]
FitRule = Callable[[str, Any, Any], Rule | None]  # (path, left, right) -> the rule, or None


@dataclass(frozen=True)
class Fit:
    """Where a discontinuous fit lies (file and path globs, the shape of its subtree) and how its
    effect is compared."""

    files: str  # glob of the file's path inside the compared directory
    path: str  # glob of the JSON path inside the file
    shape: Callable[[Any], bool]  # the subtree is this fit's (both sides are checked)
    compare: Callable[[Walk, str, Any, Any, float], None]  # (walk, path, left, right, fit_atol)
    why: str


FITS: Registry[Fit] = Registry("discontinuous fit")


def _moved(walk: Walk, path: str) -> None:
    walk.result.moved.append(walk.where(path))


def _beyond(walk: Walk, path: str, what: str, left: float, right: float, atol: float) -> bool:
    """Record a finding when ``left`` and ``right`` are more than ``atol`` apart."""
    if abs(left - right) <= atol:
        return False
    walk.differ(f"{path} ({what}, fit_atol={atol:g})", round(left, 12), round(right, 12))
    return True


def _plain(
    walk: Walk, path: str, a: Mapping[str, Any], b: Mapping[str, Any], skip: set[str]
) -> None:
    """The keys of two dicts outside ``skip``, compared as usual (a key on one side only too)."""
    for key in sorted((set(a) | set(b)) - skip):
        walk.values(json_path(path, key), a.get(key), b.get(key))


def _strictly_equal(walk: Walk, a: Any, b: Any) -> bool:
    """Whether two subtrees agree within the plain tolerance (no finding is recorded)."""
    if is_number(a) and is_number(b):
        return bool(a == b or walk.tolerance.close(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_strictly_equal(walk, a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            _strictly_equal(walk, x, y) for x, y in zip(a, b, strict=True)
        )
    return bool(a == b)


def _is_bins(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("bins"), list)


def _cumulative(bins: list[dict[str, Any]]) -> list[tuple[float, float, float]]:
    """Per bin edge: the share of the records, of their confidence and of their correct answers
    up to it."""
    total = sum(int(b.get("count") or 0) for b in bins) or 1
    out, n, conf, acc = [], 0.0, 0.0, 0.0
    for b in bins:
        count = int(b.get("count") or 0)
        n += count
        conf += count * float(b.get("confidence") or 0.0)
        acc += count * float(b.get("accuracy") or 0.0)
        out.append((n / total, conf / total, acc / total))
    return out


def _ece(bins: list[dict[str, Any]]) -> float | None:
    """Σ_b (n_b / N) · |accuracy_b − confidence_b|: the ECE a fit's bins imply."""
    total = sum(int(b.get("count") or 0) for b in bins)
    if not total:
        return None
    return sum(
        int(b.get("count") or 0)
        / total
        * abs(float(b.get("accuracy") or 0.0) - float(b.get("confidence") or 0.0))
        for b in bins
    )


def compare_reliability(walk: Walk, path: str, a: Any, b: Any, atol: float) -> None:
    _plain(walk, path, a, b, {"bins", "ece"})
    left, right = a["bins"], b["bins"]
    where = json_path(path, "bins")
    if len(left) != len(right):
        walk.differ(where, f"{len(left)} items", f"{len(right)} items")
        return
    for i, (x, y) in enumerate(zip(left, right, strict=True)):
        for edge in ("low", "high"):
            walk.values(json_path(json_path(where, i), edge), x.get(edge), y.get(edge))
    totals = [sum(int(b.get("count") or 0) for b in side) for side in (left, right)]
    if totals[0] != totals[1]:
        walk.differ(f"{where} (records)", totals[0], totals[1])
        return
    names = ("share of records", "share of confidence", "share of correct answers")
    for i, (cx, cy) in enumerate(zip(_cumulative(left), _cumulative(right), strict=True)):
        for name, u, v in zip(names, cx, cy, strict=True):
            _beyond(walk, f"{json_path(where, i)} cumulative", name, u, v, atol)
    ece = json_path(path, "ece")
    for side, fit in (("left", a), ("right", b)):
        own = _ece(fit["bins"])
        stored = fit.get("ece")
        if (own is None) != (stored is None) or (
            own is not None and not walk.tolerance.close(own, float(stored))
        ):
            walk.differ(f"{ece} ({side}: not the ECE of its bins)", show(stored), show(own))
    if not _strictly_equal(walk, a, b):
        _moved(walk, path)


@dataclass(frozen=True)
class Points:
    """The fields of an operating point (a threshold and what it admits)."""

    rates: frozenset[str]  # shares in [0, 1]: within fit_atol
    counts: Mapping[str, str] = field(default_factory=dict)  # count -> its denominator's key
    effect: frozenset[str] = frozenset()  # parameters and followers: compared through the rest

    def shape(self, value: Any) -> bool:
        return (
            isinstance(value, list)
            and bool(value)
            and all(isinstance(p, dict) and self.rates <= p.keys() for p in value)
        )

    def compare(self, walk: Walk, path: str, a: Any, b: Any, atol: float) -> None:
        if len(a) != len(b):
            walk.differ(path, f"{len(a)} items", f"{len(b)} items")
            return
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            at = json_path(path, i)
            _plain(walk, at, x, y, set(self.rates) | set(self.counts) | set(self.effect))
            for key in sorted(self.rates):
                u, v = x.get(key), y.get(key)
                if is_number(u) and is_number(v):
                    _beyond(walk, json_path(at, key), "absolute", float(u), float(v), atol)
                elif u != v:  # None on one side only: nothing accepted on one side
                    walk.differ(json_path(at, key), show(u), show(v))
            for key, denominator in sorted(self.counts.items()):
                u, v, d = x.get(key), y.get(key), x.get(denominator)
                if is_number(u) and is_number(v) and is_number(d) and d:
                    share = f"share of {denominator}"
                    _beyond(walk, json_path(at, key), share, u / d, v / d, atol)
                elif u != v:
                    walk.differ(json_path(at, key), show(u), show(v))
        if not _strictly_equal(walk, a, b):
            _moved(walk, path)


SELECTIVE = Points(frozenset({"coverage", "reason_debt", "gold_change_recall"}),
                   effect=frozenset({"threshold", "accepted"}))  # fmt: skip
TWO_PLANE = Points(
    frozenset({"execution_share", "reason_debt", "gold_change_recall"}),
    {"accepted": "predicted_changes", "certified": "predicted_changes",
     "gold_changes_correct": "gold_changes"},
    frozenset({"threshold", "executions", "exhaustive"}),
)  # fmt: skip

FITS.register(
    "reliability",
    Fit("metrics.json", "methods.*.calibration.*", _is_bins, compare_reliability,
        "isotonic pooling, bin edges: a record that crosses one moves a bin"),
)  # fmt: skip
FITS.register(
    "selective",
    Fit("metrics.json", "methods.*.selective.*", SELECTIVE.shape, SELECTIVE.compare,
        "a threshold fitted on calibration confidences admits or drops a record"),
)  # fmt: skip
FITS.register(
    "two_plane",
    Fit("metrics.json", "methods.*.two_plane", TWO_PLANE.shape, TWO_PLANE.compare,
        "the route's threshold on calibrated confidences decides which cases are certified"),
)  # fmt: skip


def _bound(fit: Fit, fit_atol: float) -> Rule:
    def rule(walk: Walk, path: str, a: Any, b: Any) -> None:
        fit.compare(walk, path, a, b, fit_atol)

    return rule


def fit_rule(rel: str, fit_atol: float) -> FitRule | None:
    """The rules that apply inside file ``rel`` (None: none), as the walk's ``fit_at``."""
    fits = [FITS.get(name) for name in FITS.names()]
    mine = [f for f in fits if fnmatch.fnmatchcase(rel, f.files)]
    if not mine:
        return None

    def at(path: str, a: Any, b: Any) -> Rule | None:
        for fit in mine:
            if fnmatch.fnmatchcase(path, fit.path) and fit.shape(a) and fit.shape(b):
                return _bound(fit, fit_atol)
        return None

    return at
