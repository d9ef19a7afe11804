"""The execution cache's migration of format-1 files, entry by entry: every verdict survives with
its run, a blank line does not end the file, a corrupt entry is named by its line number and
leaves the file as it was, and a foreign file is refused with the whole message.

The key of a hybrid is the documented sha256 (computed here from the rule, and pinned). Opening
a cache: it names its file; a foreign line cut short, a file that is not UTF-8 and an unknown
format are each refused with the whole message; a cache holding raw UTF-8 opens under an ASCII
locale."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reasonbench.certify import CertifyError, ExecutionCache, hybrid_key

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


def refusal(path: Path, content: str) -> str:
    """Write ``content`` to ``path``, open it as a cache: the message of the refusal, once the
    file is checked to be left exactly as it was."""
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CertifyError) as info:
        ExecutionCache(path)
    assert path.read_text(encoding="utf-8") == content
    return str(info.value)


@pytest.mark.parametrize(
    "corrupt",
    ['{"key": "bbb", "verdict": "pass"}', '{"key": "bbb", "run": "x", "verdict": "pass"}', "{"],
)
def test_a_corrupt_format_1_entry_is_named_by_its_line(corrupt: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    content = "\n".join([V1_HEADER, v1_line("aaa", 0, "pass"), corrupt]) + "\n"
    assert refusal(path, content) == f"{path}:3: corrupt cache entry"  # line 1 is the header


# a whole foreign line, and one cut short (no line end: a marker cut by a kill would be accepted
# as empty, anything else is foreign)
@pytest.mark.parametrize("content", ["plain text\n", "plain text"])
def test_a_foreign_file_is_refused_with_the_way_out(content: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    assert refusal(path, content) == (
        f"{path}: exists but is not a reasonbench certify cache; refusing to touch it "
        "(choose another cache path)"
    )


# --- the cache key of a hybrid (docs/certify.md, "Cache, rerun, resume") ---------------------

# The documented rule, spelled out by hand: sha256 of the canonical JSON (sorted keys, no
# spaces, UTF-8 kept) of {"adjudicator": <id>, "hybrid": <hybrid>}.
KEYED_TEXT = (
    '{"adjudicator":"command:judge --strict",'
    '"hybrid":{"note":"r\u00e9ussi","rubric":{"course":"ENG101","pass_mark":60},"score":62}}'
)
KNOWN_KEY = "e7941fb7acc17ae405ce97bc741fbc496f9dc3eaa7d8cbda2e51baae26d76899"


def test_the_key_of_a_hybrid_is_the_documented_sha256() -> None:
    # the sources in another order than sorted: the key must not depend on it
    hybrid = {"score": 62, "rubric": {"pass_mark": 60, "course": "ENG101"}, "note": "r\u00e9ussi"}
    expected = hashlib.sha256(KEYED_TEXT.encode("utf-8")).hexdigest()
    assert expected == KNOWN_KEY  # pinned: every existing cache is keyed by this very value
    assert hybrid_key("command:judge --strict", hybrid) == KNOWN_KEY


# --- opening a cache: what it remembers, and every refusal's whole message --------------------


def test_the_cache_names_its_file(tmp_path: Path) -> None:
    # ExecutionCache is public API (reasonbench.certify): its path says which file it stores in
    path = tmp_path / "cache.jsonl"
    cache = ExecutionCache(path)
    assert cache.path == path
    cache.close()


def test_a_file_that_is_not_utf8_is_named_with_the_decoding_error(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    path.write_bytes(b"\xff" + MARKER.encode() + b"\n")
    with pytest.raises(CertifyError) as info:
        ExecutionCache(path)
    assert str(info.value) == (
        f"{path}: cannot read the execution cache ('utf-8' codec can't decode byte 0xff in "
        "position 0: invalid start byte)"
    )


@pytest.mark.parametrize(("number", "shown"), [(3, "3"), ("2", "'2'")])
def test_an_unknown_format_is_refused_with_its_number_and_the_way_out(
    number: object, shown: str, tmp_path: Path
) -> None:
    path = tmp_path / "cache.jsonl"
    content = json.dumps({"format": number, "key": "reasonbench_certify_cache"}) + "\n"
    assert refusal(path, content) == (
        f"{path}: a reasonbench certify cache of format {shown}; this version reads format 2 "
        "(and migrates format 1): choose another cache path"
    )


# A cache passed through a tool that writes raw UTF-8 (``jq -c`` does) holds non-ASCII bytes;
# JSON text is UTF-8, so it must open under any locale, here plain ASCII (the C locale with
# Python's locale coercion and UTF-8 mode turned off).
READ_UNDER_ASCII = """
import sys
from pathlib import Path
from reasonbench.certify import ExecutionCache
cache = ExecutionCache(Path(sys.argv[1]))
print(ascii(cache.get("aaa", 0)), ascii(cache.get("aaa", 1)))
"""


def test_a_cache_is_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    lines = [MARKER, '{"key": "aaa/0", "verdict": "r\u00e9ussi"}']
    lines += [
        '{"failure": {"detail": "\u00ab \u2026 \u00bb", "kind": "unparsable"}, "key": "aaa/1"}'
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-X", "utf8=0", "-c", READ_UNDER_ASCII, str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stderr == "" and done.returncode == 0
    assert done.stdout == "'r\\xe9ussi' ('unparsable', '\\xab \\u2026 \\xbb')\n"
