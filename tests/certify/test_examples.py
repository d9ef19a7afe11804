"""The worked examples of docs/certify.md: the output pasted there is what the library prints."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from reasonbench.certify import run_certify
from reasonbench.cli.main import main
from tests.serve.servers import TinyServer

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "certify.md").read_text(encoding="utf-8")


def examples_module(name: str = "certify_examples") -> object:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_show_the_real_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = examples_module()
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", [str(ROOT / "data" / "examples" / "certify"), *sys.path])
    configs = module.configs(tmp_path)  # type: ignore[attr-defined]
    # a receipts line depends on its case alone: the command (a process per hybrid, the slow
    # part) runs only on the case the docs show, and one certified case
    cases = configs["command"].cases.read_text(encoding="utf-8").splitlines(keepends=True)
    subset = tmp_path / "command-cases.jsonl"
    subset.write_text("".join(c for c in cases if '"r-101"' in c or '"r-108"' in c))
    configs["command"] = dataclasses.replace(configs["command"], cases=subset)
    lines = {}
    for name, config in configs.items():
        run_certify(config)
        lines[name] = (config.out_dir / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(line in DOC for line in lines["python"])
    assert (tmp_path / "python" / "summary.md").read_text(encoding="utf-8").strip() in DOC
    monotone = [x for x in lines["python-monotone"] if '"r-103"' in x or '"r-104"' in x]
    assert len(monotone) == 2 and all(line in DOC for line in monotone)

    def outcomes(rows: list[str]) -> list[tuple[str, str, object]]:
        return [(r["id"], r["status"], r["receipt"]) for r in map(json.loads, rows)]

    python, mono = outcomes(lines["python"]), outcomes(lines["python-monotone"])
    assert [r[0] for r in python if r not in mono] == ["r-104"]  # r-103: the exact fallback
    summary = (tmp_path / "python-monotone" / "summary.md").read_text(encoding="utf-8")
    note = next(x for x in summary.splitlines() if x.startswith("8 of 8 cases certified."))
    violations = summary[summary.index("### Assumption violations") :].strip()
    assert note in DOC and violations in DOC
    r108 = next(line for line in lines["command"] if '"r-108"' in line)
    assert r108 in DOC
    assert lines["command"][0].replace('"queries": 14', '"queries": 8') == lines["python"][0]
    not_certified = (tmp_path / "command" / "summary.md").read_text(encoding="utf-8")
    assert not_certified[not_certified.index("## Not certified") :].strip() in DOC


def test_docs_show_the_real_llm_output(
    server: TinyServer, served_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The LLM-judge example on the session's server: the greedy run's first case and the
    sampled run's e-202 (the case whose verdict the edited rubric flips under run 0)."""
    module = examples_module("certify_examples_llm")
    monkeypatch.chdir(ROOT)
    configs = module.configs(tmp_path, server.base_url, str(served_model))  # type: ignore[attr-defined]
    for name, case in (("llm-greedy", "e-201"), ("llm-sampled", "e-202")):
        config = configs[name]
        lines = config.cases.read_text(encoding="utf-8").splitlines(keepends=True)
        subset = tmp_path / f"{name}.jsonl"
        subset.write_text("".join(x for x in lines if f'"{case}"' in x))
        run_certify(dataclasses.replace(config, cases=subset))
        receipt = (config.out_dir / "receipts.jsonl").read_text(encoding="utf-8").strip()
        assert receipt in DOC, name
        summary = (config.out_dir / "summary.md").read_text(encoding="utf-8")
        rows = [
            x
            for x in summary[summary.index("## Not certified") :].splitlines()
            if x.startswith(f"| {case} ")
        ]
        assert rows and all(row in DOC for row in rows), name


def documented_runs() -> list[tuple[str, str]]:
    """(command, the line it prints) for every ``reasonbench certify`` command the docs show
    with its result line as a ``# certified ...`` comment under it."""
    runs = []
    for block in re.findall(r"```bash\n(.*?)```", DOC, re.DOTALL):
        lines = block.replace("\\\n", " ").splitlines()
        for command, said in zip(lines, lines[1:], strict=False):
            if said.startswith("# certified "):
                runs.append((command, said.removeprefix("# ")))
    return runs


def test_documented_runs_print_the_line_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = documented_runs()
    assert len(runs) == 2  # adaptive at the top, monotone in example 2
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", [str(ROOT / "data" / "examples" / "certify"), *sys.path])
    for i, (command, said) in enumerate(runs):
        words = shlex.split(command)
        assert words[0].startswith("PYTHONPATH=") and words[1:3] == ["reasonbench", "certify"]
        shown = next(w for w in words if w.startswith("out_dir=")).removeprefix("out_dir=")
        out = tmp_path / str(i)  # a fresh cache: the executed count is a first run's
        argv = [f"out_dir={out}" if w.startswith("out_dir=") else w for w in words[2:]]
        assert main([*argv, "progress=false"]) == 0
        assert capsys.readouterr().out.strip() == said.replace(shown, str(out))
