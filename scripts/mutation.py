"""Mutation testing, one package at a time (docs/testing.md); run through scripts/mutation.sh.

mutmut 3 reads one ``[tool.mutmut]`` from the directory it runs in and writes its mutants to
``./mutants``. So each package gets a work directory ``mutants/<package>/`` whose pyproject.toml is
the repository's ``[tool.mutmut]`` narrowed to that package (``only_mutate``) and to the tests
that concern it (``[tool.reasonbench.mutation.<package>] tests``), with links to the sources,
tests, configs and data; mutmut copies them into ``mutants/<package>/mutants/`` and mutates the
copies, so the working tree is never touched. A rerun resumes: mutmut keeps every verdict and
retests only the functions whose source changed.

Score = killed / (total - skipped), where timeouts count as killed (mutmut's own convention) and
"no tests" mutants as survivors; the mutants listed as equivalent in docs/testing.md are reported
and excluded from the second score.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # mutmut itself depends on toml before Python 3.11
    import toml as tomllib

ROOT = Path(__file__).resolve().parents[1]
LINKED = ("reasonbench", "tests", "conf", "data", "docs", "scripts")
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
EQUIVALENT_ROW = re.compile(r"^\|\s*`(reasonbench\.[^`]+)`\s*\|")
MUTANT_NAME = re.compile(r"\.x(?:_|ǁ)")  # module, then x_<function> or xǁ<class>ǁ<method>


# mutmut settings a package may set for itself, beside its tests and only_mutate
OVERRIDABLE = ("timeout_constant", "timeout_multiplier")


def load_config() -> tuple[dict[str, object], dict[str, dict[str, object]]]:
    """The shared [tool.mutmut] and, per package, its tests, the modules mutated (optional) and
    its own values of the OVERRIDABLE settings (optional)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = data["tool"]["reasonbench"]["mutation"]
    return data["tool"]["mutmut"], {
        name: {
            "tests": list(spec["tests"]),
            "only_mutate": list(spec.get("only_mutate", [f"reasonbench/{name}/*"])),
            **{key: spec[key] for key in OVERRIDABLE if key in spec},
        }
        for name, spec in packages.items()
    }


def toml_value(value: object) -> str:
    # json spells strings, numbers and lists of them exactly as TOML does
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def prepare(package: str, common: dict[str, object], spec: dict[str, object]) -> Path:
    work = ROOT / "mutants" / package
    work.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = work / name
        if not link.is_symlink():
            link.symlink_to(os.path.relpath(ROOT / name, work), target_is_directory=True)
    settings = {
        **common,
        **{key: spec[key] for key in OVERRIDABLE if key in spec},
        "only_mutate": spec["only_mutate"],
        "pytest_add_cli_args_test_selection": spec["tests"],
    }
    pytest_ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]
    lines = ["# written by scripts/mutation.py from the repository's pyproject.toml", ""]
    lines += ["[tool.mutmut]"] + [f"{k} = {toml_value(v)}" for k, v in settings.items()]
    lines += ["", "[tool.pytest.ini_options]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in pytest_ini.items()]
    text = "\n".join(lines) + "\n"
    target = work / "pyproject.toml"
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        tmp = target.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
    return work


def equivalent_mutants() -> dict[str, str]:
    doc = ROOT / "docs" / "testing.md"
    if not doc.is_file():
        return {}
    found: dict[str, str] = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = EQUIVALENT_ROW.match(line)
        if match:
            found[match.group(1)] = line.split("|")[2].strip()
    return found


@dataclass(frozen=True)
class Score:
    package: str
    statuses: dict[str, str]  # mutant name -> mutmut status

    def count(self, names: set[str] | None = None) -> tuple[int, int]:
        chosen = {k: v for k, v in self.statuses.items() if names is None or k not in names}
        tested = [v for v in chosen.values() if v != "skipped"]
        return sum(v in KILLED for v in tested), len(tested)


def read_statuses(work: Path) -> dict[str, str]:
    from mutmut.stats import status_by_exit_code

    statuses: dict[str, str] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for name, code in data["exit_code_by_key"].items():
            statuses[name] = status_by_exit_code[code]
    return statuses


def module_of(mutant: str) -> str:
    """``reasonbench.core.cube.xǁCubeǁfrom_cells__mutmut_6`` -> ``reasonbench.core.cube``."""
    return MUTANT_NAME.split(mutant, maxsplit=1)[0]


def percent(killed: int, total: int) -> str:
    return f"{100 * killed / total:.1f} %" if total else "n/a"


def report(score: Score, equivalent: dict[str, str], work: Path, diffs: bool) -> None:
    killed, total = score.count()
    counts = Counter(score.statuses.values())
    print(f"[mutation] {score.package}: {killed}/{total} killed ({percent(killed, total)})")
    print("[mutation]   statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    known = {n for n in score.statuses if n in equivalent}
    k2, t2 = score.count(known)
    print(f"[mutation]   without {len(known)} equivalent: {k2}/{t2} ({percent(k2, t2)})")
    for module in sorted({module_of(n) for n in score.statuses}):
        part = Score(module, {n: v for n, v in score.statuses.items() if module_of(n) == module})
        k, t = part.count()
        same = {n for n in part.statuses if n in equivalent}
        k3, t3 = part.count(same)
        unrun = sum(v == "not checked" for v in part.statuses.values())
        print(
            f"[mutation]   {module}: {k}/{t} ({percent(k, t)}), without {len(same)} equivalent "
            f"{k3}/{t3} ({percent(k3, t3)})" + (f", {unrun} not run yet" if unrun else "")
        )
    for name, status in sorted(score.statuses.items()):
        if status in KILLED or status == "skipped" or name in equivalent:
            continue
        print(f"[mutation]   {status}: {name}")
        if diffs:
            shown = subprocess.run(
                [str(Path(sys.executable).with_name("mutmut")), "show", name],
                cwd=work,
                capture_output=True,
                text=True,
            )
            print(shown.stdout)


def main(argv: list[str] | None = None) -> int:
    common, packages = load_config()
    parser = argparse.ArgumentParser(
        prog="scripts/mutation.sh",
        description="Run mutmut over reasonbench packages, each against only the tests that "
        "concern it; print each package's score and its surviving mutants.",
    )
    parser.add_argument(
        "packages", nargs="*", metavar="package", help=f"of {', '.join(packages)} (all)"
    )
    parser.add_argument("-j", "--max-children", type=int, default=1, help="mutmut workers (1)")
    parser.add_argument("--report", action="store_true", help="only report the last results")
    parser.add_argument(
        "--retest",
        action="store_true",
        help="rerun every mutant not yet killed nor listed as equivalent (after the tests changed)",
    )
    parser.add_argument("--diff", action="store_true", help="show each survivor's diff")
    parser.add_argument(
        "--only",
        action="append",
        metavar="PATTERN",
        help="run only the mutants whose name matches (fnmatch, repeatable), e.g. "
        "'reasonbench.analysis.calibration.*'; mutmut reruns them even if already decided",
    )
    args = parser.parse_args(argv)
    chosen = args.packages or list(packages)
    unknown = [p for p in chosen if p not in packages]
    if unknown:
        parser.error(f"unknown package {unknown[0]!r}, expected one of {', '.join(packages)}")
    mutmut = Path(sys.executable).with_name("mutmut")
    equivalent = equivalent_mutants()
    failed = 0
    for package in chosen:
        work = prepare(package, common, packages[package])
        if not args.report:
            command = [str(mutmut), "run", "--max-children", str(args.max_children)]
            if args.retest:
                # mutmut keeps a verdict until the mutated function changes, not when the tests
                # do: recollect which tests reach which function, then rerun the survivors
                (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
                statuses = read_statuses(work)
                # equivalent mutants cannot be killed: do not spend their tests' time again
                command += sorted(
                    n
                    for n, v in statuses.items()
                    if v not in KILLED and n not in equivalent and chosen_by(n, args.only)
                )
            elif args.only:
                command += args.only
            print(f"[mutation] {package}: mutmut run in {work.relative_to(ROOT)}", flush=True)
            failed |= subprocess.run(command, cwd=work).returncode != 0
        score = Score(package, read_statuses(work))
        report(score, equivalent, work, args.diff)
    print(f"[mutation] {date.today().isoformat()}, mutmut {mutmut_version()}")
    return 1 if failed else 0


def chosen_by(name: str, patterns: list[str] | None) -> bool:
    return not patterns or any(fnmatch.fnmatchcase(name, p) for p in patterns)


def mutmut_version() -> str:
    from importlib.metadata import version

    return version("mutmut")


if __name__ == "__main__":
    sys.exit(main())
