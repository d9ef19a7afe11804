"""The reproducibility contract: which guarantee each output of the main job carries across
machines, why, and how ``compare`` checks it. One object, read by ``compare`` and rendered in
docs/reproducibility.md (a test holds the page to it).

Three guarantees, and the digests that follow them:

* ``bytes`` — the same bytes on any machine: exact arithmetic (integers, rationals, strings) and
  values rounded to what a table prints. Compared byte for byte; any difference counts.
* ``x86`` — the same bytes on any x86-64 CPU, Intel or AMD, when both runs recorded the portable
  kernels (``cpu_kernels=portable``: ATen's AVX2 build, or its plain build on a CPU below AVX2, and
  MKL's ``COMPATIBLE`` branch; models/kernels.py). Where the two runs recorded other kernels (a
  CPU below AVX2 beside one with it, aarch64, a torch without MKL, ``native``) the file falls to
  ``tolerance``, and the summary says so with both records.
* ``tolerance`` — floats within ``rtol``/``atol``, integers and text exactly, discontinuous fits by
  their effect within ``fit_atol`` (fits.py): floats that come through numpy's BLAS, whose kernels
  are the processor's choice.
* ``digest`` — the output ledgers hash the files beside them: listed when they differ, never
  counted (``compare``'s ``digests`` key), since the files themselves are compared.

A clause is registered (:data:`CONTRACT`, first match wins, in registration order) with the globs
of the files it covers inside a results directory; a file no clause names (a user's own output) is
compared under ``tolerance``.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reasonbench.registry import Registry

__all__ = [
    "CONTRACT",
    "GUARANTEES",
    "Clause",
    "Guarantee",
    "clause_for",
    "contract_table",
    "describe_kernels",
    "kernels_of",
    "portable_pair",
]


@dataclass(frozen=True)
class Guarantee:
    name: str
    holds: str  # where the bytes (or the tolerance) hold
    checked: str  # how compare checks it


GUARANTEES: dict[str, Guarantee] = {
    g.name: g
    for g in (
        Guarantee("bytes", "on any machine", "byte for byte; any difference counts"),
        Guarantee(
            "x86",
            "on any x86-64 CPU (Intel or AMD) when both runs recorded the portable kernels; "
            "elsewhere as `tolerance`",
            "byte for byte when both `.meta.json` record `cpu_kernels=portable` with MKL "
            "`compatible` and the same ATen build; otherwise as `tolerance`, naming both records",
        ),
        Guarantee(
            "digest",
            "wherever the files they hash hold",
            "listed when they differ (`digests`), never counted: the files they hash are compared",
        ),
        Guarantee(
            "tolerance",
            "within the tolerance on any machine",
            "floats within `rtol`/`atol`, integers and text exactly, discontinuous fits by their "
            "effect within `fit_atol`",
        ),
    )
}


@dataclass(frozen=True)
class Clause:
    """A class of outputs: the files (globs inside a results directory) and their guarantee."""

    outputs: str  # the outputs, in words
    patterns: tuple[str, ...]
    guarantee: str  # a key of GUARANTEES
    why: str

    def covers(self, rel: str) -> bool:
        return any(fnmatch.fnmatchcase(rel, p) for p in self.patterns)


CONTRACT: Registry[Clause] = Registry("reproducibility clause")
for _name, _clause in {
    "ledgers": Clause(
        "the output ledgers (`.reasonbench-outputs.json`)",
        ("*.reasonbench-outputs.json", ".reasonbench-outputs.json"),
        "digest",
        "they hold the sha256 of each file beside them",
    ),
    "model predictions": Clause(
        "the CPU models' prediction records and their `.meta.json` "
        "(`predictions/<model>-<target>/seed*.jsonl`)",
        ("predictions/*/seed*.jsonl", "predictions/*/seed*.meta.json"),
        "x86",
        "decoded from committed weights with the portable kernels: the same code on every "
        "x86-64 CPU (MKL documents `COMPATIBLE` as giving the same results on Intel and "
        "compatible processors); the kernels each run used are recorded in its `.meta.json`",
    ),
    "majority": Clause(
        "the majority baseline's records (`predictions/majority.parquet`)",
        ("predictions/majority.parquet",),
        "bytes",
        "counts of training labels; no float is fitted",
    ),
    "tfidf": Clause(
        "the TF-IDF baselines' records (`predictions/tfidf*.parquet`)",
        ("predictions/tfidf*.parquet",),
        "tolerance",
        "logistic regressions fitted through numpy's BLAS, whose kernels (and so the order of "
        "additions) are the processor's choice; a confidence is stored to 6 decimals, so one "
        "within the noise of a rounding boundary moves by 1e-6",
    ),
    "metrics": Clause(
        "`metrics.json`",
        ("metrics.json",),
        "tolerance",
        "counts, exact ratios and bootstrap intervals over labels are exact, but it also holds "
        "the calibration fits (Platt through BLAS; isotonic maps, reliability bins and selective "
        "thresholds on the TF-IDF confidences), which are compared by their effect",
    ),
    "reports": Clause(
        "the audit, tables, figures, README and Judge Cards "
        "(`audit/`, `tables/`, `figures/`, `README.md`, `judge_cards/`)",
        ("audit/*", "tables/*", "figures/*", "README.md", "judge_cards/*"),
        "bytes",
        "exact re-execution and counts; tables print every float to two decimals and figures "
        "are plotted from those rounded values",
    ),
}.items():
    CONTRACT.register(_name, _clause)


def clause_for(rel: str) -> Clause | None:
    """The first registered clause that covers ``rel`` (a path inside a results directory)."""
    for name in CONTRACT.names():
        clause = CONTRACT.get(name)
        if clause.covers(rel):
            return clause
    return None


def _meta_of(rel: str) -> str:
    """The run's meta file beside a prediction file (itself for a meta file)."""
    if rel.endswith(".meta.json"):
        return rel
    return rel.removesuffix(".jsonl") + ".meta.json"


def kernels_of(root: Path, rel: str) -> dict[str, Any] | None:
    """The CPU kernels the run that wrote ``rel`` recorded (``decoding.cpu_kernels`` of its
    ``.meta.json``), or None when it recorded none (a file without a meta, a GPU run)."""
    meta = root / _meta_of(rel) if root.is_dir() else None
    if meta is None or not meta.is_file():
        return None
    try:
        kernels = (
            json.loads(meta.read_text(encoding="utf-8")).get("decoding", {}).get("cpu_kernels")
        )
    except (ValueError, AttributeError, OSError):
        return None  # an unreadable meta is a difference of its own, found when it is compared
    return kernels if isinstance(kernels, dict) else None


def portable_pair(left: dict[str, Any] | None, right: dict[str, Any] | None) -> bool:
    """Whether two runs' kernels promise the same bytes: both portable, both on MKL's compatible
    branch, the same ATen build."""
    if left is None or right is None:
        return False
    return (
        left.get("cpu_kernels") == right.get("cpu_kernels") == "portable"
        and left.get("mkl") == right.get("mkl") == "compatible"
        and left.get("aten") == right.get("aten")
    )


def describe_kernels(kernels: dict[str, Any] | None) -> str:
    if kernels is None:
        return "none recorded"
    return f"{kernels.get('cpu_kernels')}: ATen {kernels.get('aten')}, MKL {kernels.get('mkl')}"


def contract_table() -> str:
    """The contract as the Markdown table of docs/reproducibility.md (a test holds the page to
    it): one row per clause, in the order compare matches them."""
    rows = [
        "| outputs | guarantee | holds | why | compare checks |",
        "|---|---|---|---|---|",
    ]
    for name in CONTRACT.names():
        clause = CONTRACT.get(name)
        g = GUARANTEES[clause.guarantee]
        rows.append(f"| {clause.outputs} | `{g.name}` | {g.holds} | {clause.why} | {g.checked} |")
    return "\n".join(rows) + "\n"
