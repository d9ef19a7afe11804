"""Outputs: atomic, umask-following, and never replacing what reasonbench did not write."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from reasonbench.io import LEDGER, OutputDir, OutputError, replace_directory, write_json, write_text


def test_atomic_write_leaves_nothing_half_written(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    write_json(target, {"b": 1, "a": [1, 2]})
    assert target.read_text() == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}\n'
    with pytest.raises(TypeError):
        write_json(target, {"x": object()})  # not serializable: fails before anything is replaced
    assert target.read_text().startswith('{\n  "a"')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # no temporary left


def test_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "f.txt", "x")
        with OutputDir(tmp_path / "out", "test") as out:
            out.write_text("sub/g.txt", "y")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "out" / "sub" / "g.txt").stat().st_mode) == 0o640


def test_output_dir_replaces_only_its_own_files(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("the user's own notes")
    with OutputDir(tmp_path, "tables") as out:
        out.write_text("README.md", "one")
        with pytest.raises(OutputError, match="notes.md exists and was not written by reasonbench"):
            out.write_text("notes.md", "ours")
    assert (tmp_path / "notes.md").read_text() == "the user's own notes"
    assert (tmp_path / LEDGER).is_file()
    with OutputDir(tmp_path, "tables") as out:
        out.write_text("README.md", "two")  # ours and unchanged: replaced
    assert (tmp_path / "README.md").read_text() == "two"
    (tmp_path / "README.md").write_text("edited by the user")
    with pytest.raises(OutputError, match="README.md was changed since reasonbench wrote it"):
        OutputDir(tmp_path, "tables").write_text("README.md", "three")
    assert (tmp_path / "README.md").read_text() == "edited by the user"
    with OutputDir(tmp_path, "tables", overwrite=True) as out:
        out.write_text("notes.md", "replaced on request")
    assert (tmp_path / "notes.md").read_text() == "replaced on request"


def test_ledgers_of_two_commands_merge(tmp_path: Path) -> None:
    with OutputDir(tmp_path, "analyze") as out:
        out.write_json("metrics.json", {})
    with OutputDir(tmp_path, "tables") as out:
        out.write_text("README.md", "x")
    with OutputDir(tmp_path, "analyze") as out:
        out.write_json("metrics.json", {"a": 1})  # still known after the other command wrote
    with OutputDir(tmp_path, "tables") as out:
        out.write_text("README.md", "y")


def test_replace_directory_keeps_foreign_directories(tmp_path: Path) -> None:
    def ours(p: Path) -> bool:
        return (p / "MARK").is_file()

    target = tmp_path / "data"
    target.mkdir()
    (target / "thesis.tex").write_text("years of work")
    (tmp_path / "data.previous").mkdir()  # a name the old code deleted
    staging = tmp_path / "staging"
    staging.mkdir()
    (staging / "MARK").write_text("")
    with pytest.raises(OutputError, match="data exists and is not a build; it is left untouched"):
        replace_directory(staging, target, ours, "a build", overwrite=False)
    assert (target / "thesis.tex").read_text() == "years of work"
    assert (tmp_path / "data.previous").is_dir()
    (target / "thesis.tex").unlink()
    (target / "MARK").write_text("old build")
    replace_directory(staging, target, ours, "a build", overwrite=False)
    assert (target / "MARK").read_text() == "" and not staging.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "data.previous"]


def test_a_failed_command_leaves_no_empty_directory_it_made(tmp_path: Path) -> None:
    (tmp_path / "kept").mkdir()
    with pytest.raises(RuntimeError), OutputDir(tmp_path / "kept" / "a" / "b", "evaluate") as out:
        out.check("seed0.jsonl")  # checked first (it creates kept/a/b), then the run fails
        raise RuntimeError("the server gave up")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["kept"]  # kept existed before
    with pytest.raises(RuntimeError), OutputDir(tmp_path / "c", "evaluate") as out:
        out.write_text("sub/one.txt", "written before the failure")
        out.check("two/deeper/two.txt")
        raise RuntimeError("the server gave up")
    assert (tmp_path / "c" / "sub" / "one.txt").read_text() == "written before the failure"
    assert not (tmp_path / "c" / "two").exists()  # made and left empty: gone again
    with OutputDir(tmp_path / "d", "evaluate") as out:
        out.check("e.txt")  # a command that ends well keeps its directory, even empty
    assert (tmp_path / "d").is_dir()
