"""The execution cache's migration of format-1 files, entry by entry: every verdict survives with
its run, a blank line does not end the file, a corrupt entry is named by its line number and
leaves the file as it was, and a foreign file is refused with the whole message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.certify import CertifyError, ExecutionCache

V1_HEADER = '{"reasonbench_certify_cache": 1}'
MARKER = '{"format": 2, "key": "reasonbench_certify_cache"}'


def v1_line(key: str, run: int, verdict: str) -> str:
    return json.dumps({"key": key, "run": run, "verdict": verdict})


def test_a_format_1_file_keeps_every_verdict_with_its_run(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    lines = [V1_HEADER, v1_line("aaa", 0, "pass"), "", v1_line("aaa", 1, "fail")]
    lines += [v1_line("bbb", 0, "refer")]  # after the blank line: still an execution
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cache = ExecutionCache(path)
    assert len(cache) == 3
    assert (cache.get("aaa", 0), cache.get("aaa", 1), cache.get("bbb", 0)) == (
        "pass",
        "fail",
        "refer",
    )
    cache.close()
    assert path.read_text(encoding="utf-8").split("\n") == [
        MARKER,
        '{"key": "aaa/0", "verdict": "pass"}',
        '{"key": "aaa/1", "verdict": "fail"}',
        '{"key": "bbb/0", "verdict": "refer"}',
        "",
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["cache.jsonl"]  # no temporary left


@pytest.mark.parametrize(
    "corrupt",
    ['{"key": "bbb", "verdict": "pass"}', '{"key": "bbb", "run": "x", "verdict": "pass"}', "{"],
)
def test_a_corrupt_format_1_entry_is_named_by_its_line(corrupt: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    content = "\n".join([V1_HEADER, v1_line("aaa", 0, "pass"), corrupt]) + "\n"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CertifyError) as info:
        ExecutionCache(path)
    assert str(info.value) == f"{path}:3: corrupt cache entry"  # line 1 is the header
    assert path.read_text(encoding="utf-8") == content


def test_a_foreign_file_is_refused_with_the_way_out(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    path.write_text("plain text\n", encoding="utf-8")
    with pytest.raises(CertifyError) as info:
        ExecutionCache(path)
    assert str(info.value) == (
        f"{path}: exists but is not a reasonbench certify cache; refusing to touch it "
        "(choose another cache path)"
    )
