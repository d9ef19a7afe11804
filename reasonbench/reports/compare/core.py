"""Two results compared file by file under the contract (contract.py): each file's guarantee
decides how it is compared, and the summary names the class of every difference it tolerates."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reasonbench.reports.compare.contract import (
    clause_for,
    describe_kernels,
    kernels_of,
    portable_pair,
)
from reasonbench.reports.compare.fits import fit_rule
from reasonbench.reports.compare.formats import FORMATS, compare_binary, suffix_of
from reasonbench.reports.compare.walk import (
    CompareError,
    Digests,
    FileResult,
    Finding,
    Tolerance,
    Walk,
)

__all__ = ["FIT_ATOL", "Comparison", "compare", "compare_bytes"]

FIT_ATOL = 0.01  # a discontinuous fit's effect may move by one record in a hundred (fits.py)
EXACT = Tolerance(0.0, 0.0)
NO_DIGESTS = Digests()


def compare_bytes(
    rel: str,
    a: bytes,
    b: bytes,
    tolerance: Tolerance,
    digests: Digests = NO_DIGESTS,
    machine: Digests = NO_DIGESTS,
    guarantee: str = "tolerance",
    fit_atol: float = FIT_ATOL,
) -> FileResult:
    """One file's two versions under ``guarantee`` (``rel`` names it in every finding and picks
    its format): ``bytes`` counts every difference, ``tolerance`` applies the tolerance and the
    fits' rules."""
    result = FileResult(rel, guarantee=guarantee)
    if a == b:
        result.identical = True
        return result
    for rules, kept in ((digests, result.digests), (machine, result.machine)):
        if rules.whole_file(rel):
            kept.append(rel)
            return result
    suffix = suffix_of(rel)
    comparer = FORMATS.get(suffix) if suffix in FORMATS else compare_binary
    exact = guarantee == "bytes"
    walk = Walk(
        result,
        EXACT if exact else tolerance,
        digests.keys(rel),
        machine.keys(rel),
        None if exact else fit_rule(rel, fit_atol),
    )
    comparer(a, b, walk)
    if exact and not result.beyond and not result.digests and not result.machine:
        # the same values written otherwise (key order, spacing, a float's repr): bytes differ
        result.beyond.append(Finding(rel, "other bytes", "the same values"))
    return result


def _files(root: Path) -> dict[str, Path]:
    """Every file under ``root`` by its path inside (posix), hidden files included."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@dataclass
class Comparison:
    left: Path
    right: Path
    tolerance: Tolerance
    files: list[FileResult]
    only_left: list[str]
    only_right: list[str]
    fit_atol: float = FIT_ATOL

    @property
    def beyond(self) -> list[Finding]:
        return [f for r in self.files for f in r.beyond]

    @property
    def agree(self) -> bool:
        return not (self.beyond or self.only_left or self.only_right)

    def lines(self) -> list[str]:
        """Every difference that counts (one line each, with its file's guarantee), then the
        summary line."""
        out = [f.line(f"differs ({r.guarantee})") for r in self.files for f in r.beyond]
        out += [f"only in left: {rel}" for rel in self.only_left]
        out += [f"only in right: {rel}" for rel in self.only_right]
        return [*out, self.summary()]

    def _tolerated(self) -> list[str]:
        """What agrees only within the contract's tolerance, named by its class."""
        parts = []
        for r in self.files:
            if r.beyond or not (r.within or r.moved):
                continue
            what = [f"{r.within:,} numbers within rtol/atol"] if r.within else []
            if r.moved:
                what.append(f"fits by effect within fit_atol: {', '.join(r.moved)}")
            why = f"; {r.note}" if r.note else ""
            parts.append(f"{r.rel} ({r.guarantee}{why}: {'; '.join(what)})")
        return parts

    def summary(self) -> str:
        identical = sum(r.identical for r in self.files)
        digests = [d for r in self.files if not r.beyond for d in r.digests]
        # listed beside differences too: another CPU's kernels are what explains them
        machine = [m for r in self.files for m in r.machine]
        n = len(self.files)
        parts = [f"{identical} of {n} file(s) byte-identical"]
        tolerated = self._tolerated()
        if tolerated:
            parts.append(f"{len(tolerated)} tolerated: {', '.join(tolerated)}")
        if digests:
            parts.append(
                f"digests that differ, not counted (they hash what is compared here, or learned "
                f"weights): {', '.join(digests)}"
            )
        if machine:
            parts.append(
                f"machine entries that differ, not counted (what each run's CPU used; its numbers "
                f"are compared): {', '.join(machine)}"
            )
        pair = f"{self.left} and {self.right}"
        settings = f"{self.tolerance}, fit_atol={self.fit_atol:g}"
        if self.agree:
            return f"{pair} agree under the contract ({settings}): " + "; ".join(parts)
        bad = [r for r in self.files if r.beyond]
        head = f"{len(self.beyond)} difference(s) beyond the contract ({settings}) in {len(bad)} file(s)"
        sides = [
            f"{len(names)} file(s) only in {side}"
            for side, names in (("left", self.only_left), ("right", self.only_right))
            if names
        ]
        return f"{pair} differ: " + "; ".join([head, *sides, *parts])


def _patterns(given: Sequence[str] | Digests) -> Digests:
    return given if isinstance(given, Digests) else Digests(tuple(given))


def _guarantee(left: Path, right: Path, rel: str) -> tuple[str, str]:
    """The guarantee ``rel`` is compared under, and why when it is not its clause's own."""
    clause = clause_for(rel)
    if clause is None:
        return "tolerance", ""
    if clause.guarantee == "digest":
        return "tolerance", ""  # listed through the digests key, as the clause says
    if clause.guarantee != "x86":
        return clause.guarantee, ""
    kernels = kernels_of(left, rel), kernels_of(right, rel)
    if kernels == (None, None):
        return "tolerance", ""  # a run that records no CPU kernels (a GPU run, a served judge)
    if portable_pair(*kernels):
        return "bytes", "both runs on the portable kernels"
    described = ", ".join(
        f"{side} {describe_kernels(k)}" for side, k in zip(("left", "right"), kernels, strict=True)
    )
    return "tolerance", f"x86 class under other kernels: {described}"


def compare(
    left: Path,
    right: Path,
    tolerance: Tolerance,
    digests: Sequence[str] | Digests = (),
    machine: Sequence[str] | Digests = (),
    fit_atol: float = FIT_ATOL,
) -> Comparison:
    """Compare two files (of one format) or two directories (file by file, by path inside),
    each file under its guarantee in the contract."""
    if not (isinstance(fit_atol, int | float) and 0 <= fit_atol < 1):
        raise CompareError(f"fit_atol must be a share in [0, 1), got {fit_atol!r}")
    rules, machine_rules = _patterns(digests), _patterns(machine)
    for side, path in (("left", left), ("right", right)):
        if not path.exists():
            raise CompareError(f"{side}={path} does not exist")
        if not (path.is_file() or path.is_dir()):
            raise CompareError(f"{side}={path} is neither a file nor a directory")
    if left.is_dir() != right.is_dir():
        kinds = ["a directory" if p.is_dir() else "a file" for p in (left, right)]
        raise CompareError(
            f"left={left} is {kinds[0]} but right={right} is {kinds[1]} "
            "(compare two metrics files or two results directories)"
        )
    if left.is_file():
        pairs: Iterable[tuple[str, Path, Path]] = [(left.name, left, right)]
        only_left: list[str] = []
        only_right: list[str] = []
    else:
        a, b = _files(left), _files(right)
        pairs = [(rel, a[rel], b[rel]) for rel in sorted(a.keys() & b.keys())]
        only_left, only_right = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    results = []
    for rel, x, y in pairs:
        guarantee, note = _guarantee(left, right, rel)
        result = compare_bytes(
            rel, x.read_bytes(), y.read_bytes(), tolerance, rules, machine_rules, guarantee,
            fit_atol,
        )  # fmt: skip
        result.note = note
        results.append(result)
    return Comparison(left, right, tolerance, results, only_left, only_right, fit_atol)
