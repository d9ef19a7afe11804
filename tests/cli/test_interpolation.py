"""An interpolation that cannot be resolved is one line naming the key that holds it, its value
as written and what is missing, for every command, before anything runs: Hydra's sweep directory
included, which Hydra resolves once for the whole sweep, without the swept values."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.cli.main import main

CASES = [
    pytest.param(
        ["judge-card", "judge=custom", "judge.factory=tests.toys.judge:build"],
        "reasonbench judge-card: error: out_dir = results/judge_cards/${judge.name}: judge.name "
        "is missing (set judge.name=...), in the command line",
        id="judge-card-without-judge.name",
    ),
    pytest.param(
        ["evaluate", "judge=custom", "judge.factory=tests.toys.judge:build"],
        "reasonbench evaluate: error: out_dir = ${predictions_dir}/${judge.name}: judge.name is "
        "missing (set judge.name=...), in the command line",
        id="evaluate-without-judge.name",
    ),
    pytest.param(
        ["certify", "-m", "cases=a.jsonl,b.jsonl", "out_dir=out/${cases}"],
        "reasonbench certify: error: hydra.sweep.dir = ${out_dir} = out/${cases}: cases is "
        "missing: Hydra resolves the sweep directory once, before any job, without the swept "
        "values (cases=a.jsonl,b.jsonl), so it cannot name a swept key (each job writes to its "
        "own <sweep directory>/<job number>/), in the command line",
        id="certify-sweep-dir-naming-the-swept-cases",
    ),
    pytest.param(
        ["audit", "data_dir=data/${nope}"],
        "reasonbench audit: error: data_dir = data/${nope}: nope is not a key, in the command line",
        id="an-unknown-key",
    ),
    pytest.param(
        ["train", "-m", "seed=0,1", "out_dir=runs/${seed}", "hydra.sweep.dir=${nope}"],
        "reasonbench train: error: hydra.sweep.dir = ${nope}: nope is not a key, in the command "
        "line",
        id="an-unknown-key-in-the-sweep-dir",
    ),
    pytest.param(
        ["verify", "hydra.run.dir=${oc.env:REASONBENCH_NO_SUCH_VARIABLE}"],
        "reasonbench verify: error: hydra.run.dir = ${oc.env:REASONBENCH_NO_SUCH_VARIABLE}: "
        'KeyError raised while resolving interpolation: "Environment variable '
        "'REASONBENCH_NO_SUCH_VARIABLE' not found\", in the command line",
        id="hydra-run-dir",
    ),
]


@pytest.mark.parametrize(("argv", "line"), CASES)
def test_an_unresolvable_interpolation_is_one_line(
    argv: list[str],
    line: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # every output path above is relative: nothing may appear here
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text('{"id": "c1", "sources": {"rubric": {"old": 1, "new": 2}}}\n')
    before = sorted(tmp_path.rglob("*"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.rstrip("\n") == line
    assert sorted(tmp_path.rglob("*")) == before  # nothing written
