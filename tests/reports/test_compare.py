"""``reasonbench compare``: a result agrees with itself and with any perturbation within the
tolerance; a number beyond it is named (file, path inside, both values); every format (JSON,
JSONL, CSV, Parquet, text, binary) and every way the two sides can differ (a file on one side
only, a digest, an unreadable file) ends in its own line; bad paths end in one line, exit 2."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.cli.main import main
from reasonbench.io import OutputDir
from reasonbench.reports.compare import (
    CompareError,
    Comparison,
    Tolerance,
    compare,
    compare_bytes,
)

TOL = Tolerance(rtol=1e-5, atol=1e-9)
DIGESTS = ["*.reasonbench-outputs.json", "*.meta.json:adapter_sha256"]

# ---- JSON trees: the property tests ----------------------------------------------------------

KEYS = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)
LEAVES = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | FLOATS | st.text(max_size=5)
TREES = st.recursive(
    LEAVES,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=4),
    max_leaves=20,
)


def float_paths(tree: Any, path: str = "") -> list[tuple[str, float]]:
    """Every float leaf with its documented path (``a.b[2].c``; keys here are plain names)."""
    if isinstance(tree, float):
        return [(path, tree)]
    if isinstance(tree, dict):
        return [p for k, v in tree.items() for p in float_paths(v, f"{path}.{k}" if path else k)]
    if isinstance(tree, list):
        return [p for i, v in enumerate(tree) for p in float_paths(v, f"{path}[{i}]")]
    return []


def replace(tree: Any, path: str, value: float) -> Any:
    """``tree`` with the leaf at ``path`` set to ``value``."""
    if path == "":
        return value
    match = re.match(r"\[(\d+)\]|\.?([a-z][a-z0-9_]*)", path)
    assert match is not None
    rest = path[match.end() :]
    if match.group(1) is not None:
        i = int(match.group(1))
        return [replace(v, rest, value) if j == i else v for j, v in enumerate(tree)]
    key = match.group(2)
    return {k: replace(v, rest, value) if k == key else v for k, v in tree.items()}


def perturbed(tree: Any, fraction: float) -> Any:
    """Every float moved by ``fraction`` of what the tolerance allows (alternating direction)."""
    if isinstance(tree, float):
        step = fraction * max(TOL.rtol * abs(tree), TOL.atol)
        return tree + step if int(abs(tree)) % 2 else tree - step
    if isinstance(tree, dict):
        return {k: perturbed(v, fraction) for k, v in tree.items()}
    if isinstance(tree, list):
        return [perturbed(v, fraction) for v in tree]
    return tree


def as_json(tree: Any, **kwargs: Any) -> bytes:
    return json.dumps(tree, **kwargs).encode()


@settings(max_examples=80, deadline=None)
@given(TREES)
def test_a_result_agrees_with_itself_however_it_is_written(tree: Any) -> None:
    # same values, other bytes (key order, indentation): nothing differs, nothing is "within"
    result = compare_bytes("m.json", as_json(tree, sort_keys=True), as_json(tree, indent=3), TOL)
    assert result.beyond == [] and result.within == 0


@settings(max_examples=80, deadline=None)
@given(TREES)
def test_a_perturbation_within_the_tolerance_agrees(tree: Any) -> None:
    other = perturbed(tree, 0.5)
    result = compare_bytes("m.json", as_json(tree), as_json(other), TOL)
    assert result.beyond == []
    moved = sum(
        a != b for (_, a), (_, b) in zip(float_paths(tree), float_paths(other), strict=True)
    )
    assert result.within == moved


@settings(max_examples=80, deadline=None)
@given(TREES, st.data())
def test_a_number_beyond_the_tolerance_is_named_with_both_values(tree: Any, data: Any) -> None:
    leaves = float_paths(tree)
    if not leaves:
        tree, leaves = {"x": 0.5}, [("x", 0.5)]
    path, value = data.draw(st.sampled_from(leaves))
    moved = value + 3 * max(TOL.rtol * abs(value), TOL.atol)
    for a, b in ((tree, replace(tree, path, moved)), (replace(tree, path, moved), tree)):
        result = compare_bytes("m.json", as_json(a), as_json(b), TOL)
        left, right = (value, moved) if a is tree else (moved, value)
        where = f"m.json:{path}" if path else "m.json"
        assert [(f.where, f.left, f.right) for f in result.beyond] == [
            (where, repr(left), repr(right))
        ]


@settings(max_examples=100, deadline=None)
@given(st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_the_tolerance_is_symmetric(a: float, b: float) -> None:
    assert TOL.close(a, b) == TOL.close(b, a)
    assert TOL.close(a, a)


# ---- the rules -------------------------------------------------------------------------------


def findings(rel: str, a: bytes, b: bytes, tol: Tolerance = TOL) -> list[str]:
    return [f.line() for f in compare_bytes(rel, a, b, tol).beyond]


def test_integers_are_exact_and_only_floats_get_the_tolerance() -> None:
    # a count of 10**7 off by one is a different count, whatever rtol allows a float
    assert findings("m.json", b'{"n": 10000000}', b'{"n": 10000001}') == [
        "differs: m.json:n: left=10000000, right=10000001"
    ]
    assert findings("m.json", b'{"n": 10000000.0}', b'{"n": 10000001.0}') == []
    # booleans are not numbers; NaN agrees with NaN only; an infinity with itself only
    assert findings("m.json", b"[true, NaN, Infinity]", b"[1, NaN, Infinity]") == [
        "differs: m.json:[0]: left=true, right=1"
    ]
    assert findings("m.json", b"[NaN]", b"[0.0]") == ["differs: m.json:[0]: left=nan, right=0.0"]
    # an integer beyond any float, beside a float: a difference, never an overflow
    (line,) = findings("m.json", b"[1" + b"0" * 400 + b"]", b"[1.0]")
    assert line.startswith("differs: m.json:[0]: left=1000") and line.endswith("right=1.0")


def test_keys_and_lengths_are_compared_exactly_and_odd_keys_are_quoted() -> None:
    assert findings("m.json", b'{"a b": {"x": 1}}', b'{"a b": {"y": 1}}') == [
        'differs: m.json:["a b"].x: left=1, right=(absent)',
        'differs: m.json:["a b"].y: left=(absent), right=1',
    ]
    # lists of other lengths cannot be paired item by item: one line, not one per shifted item
    assert findings("m.json", b'{"s": [1, 2, 3]}', b'{"s": [0, 1, 2, 3]}') == [
        'differs: m.json:s: left="3 items", right="4 items"'
    ]


def test_jsonl_records_are_numbered_from_zero() -> None:
    a = b'{"id": "e1", "confidence": 0.25}\n{"id": "e2", "confidence": 1.5e-34}\n'
    b = b'{"id": "e1", "confidence": 0.26}\n{"id": "e2", "confidence": 1.5000001e-34}\n'
    assert findings("p/seed0.jsonl", a, b) == [
        "differs: p/seed0.jsonl:[0].confidence: left=0.25, right=0.26"
    ]


def test_csv_cells_numbers_by_tolerance_counts_and_text_exactly() -> None:
    a = b"method,points,ECE,note\ntfidf,1037,40.78627609182531,a\n"
    b = b"method,points,ECE,note\ntfidf,1038,40.786276091,b\n"
    assert findings("tables/calibration.csv", a, b) == [
        'differs: tables/calibration.csv:[0].note: left="a", right="b"',
        "differs: tables/calibration.csv:[0].points: left=1037, right=1038",
    ]
    assert findings("t.csv", b"a,b\n1,2\n", b"a,c\n1,2\n") == [
        'differs: t.csv:columns: left=["a", "b"], right=["a", "c"]'
    ]
    assert findings("t.csv", b"a\n1\n", b"a\n1\n2\n") == [
        'differs: t.csv:rows: left="1 rows", right="2 rows"'
    ]


def parquet(**columns: list[Any]) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


def test_parquet_columns_by_type_then_cells() -> None:
    a = parquet(example_id=["e1", "e2"], confidence=[0.413044, 0.5], seed=[0, 0])
    b = parquet(example_id=["e1", "e3"], confidence=[0.413045, 0.6], seed=[0, 0])
    assert findings("predictions/tfidf.parquet", a, b) == [
        "differs: predictions/tfidf.parquet:[1].confidence: left=0.5, right=0.6",
        'differs: predictions/tfidf.parquet:[1].example_id: left="e2", right="e3"',
    ]
    retyped = parquet(example_id=["e1", "e2"], confidence=[0.413044, 0.5], seed=[0.0, 0.0])
    (line,) = findings("p.parquet", a, retyped)
    assert line.startswith("differs: p.parquet:columns:") and "seed: int64" in line


def test_text_is_exact_line_by_line() -> None:
    a = b"| m | 44.23 |\n| n | 1.00 |\n"
    b = b"| m | 44.24 |\n| n | 1.00 |\n"
    assert findings("README.md", a, b, Tolerance(1.0, 1.0)) == [
        'differs: README.md:line 1: left="| m | 44.23 |", right="| m | 44.24 |"'
    ]
    assert findings("t.tex", b"a\nb\n", b"a\nb\nc\n") == [
        'differs: t.tex:lines: left="3 lines", right="4 lines"',
        'differs: t.tex:line 3: left="", right="c"',
    ]


def test_binary_files_are_compared_byte_for_byte() -> None:
    (line,) = findings("figures/forest.png", b"\x89PNG-a", b"\x89PNG-b")
    assert line.startswith("differs: figures/forest.png:bytes: left=6 bytes, sha256 ")
    assert compare_bytes("figures/forest.png", b"\x89PNG", b"\x89PNG", TOL).identical


def test_a_file_unreadable_in_its_format_is_a_difference() -> None:
    assert findings("m.json", b'{"a": 1}', b'{"a": ') == [
        "differs: m.json: left=valid JSON, right=not valid JSON (line 1 column 7: Expecting value)"
    ]
    (line,) = findings("p.parquet", b"junk", parquet(a=[1]))
    assert line.startswith("differs: p.parquet: left=not valid Parquet (")
    assert line.endswith("right=valid Parquet")


# ---- directories -----------------------------------------------------------------------------


def results_dir(root: Path, accuracy: float, adapter: str, extra: str | None = None) -> Path:
    """A small results directory written the way the commands write theirs (with ledgers)."""
    with OutputDir(root, "analyze") as out:
        out.write_json("metrics.json", {"methods": {"tfidf": {"seeds": [{"accuracy": accuracy}]}}})
        out.write_text("tables/t.md", "| tfidf | 43.12 |\n")
        out.write_json("predictions/m/seed0.meta.json", {"adapter_sha256": adapter, "seed": 0})
        if extra:
            out.write_text(extra, "x")
    return root


def test_directories_within_tolerance_pass_with_one_line(tmp_path: Path) -> None:
    left = results_dir(tmp_path / "a", 0.43125, "aa")
    right = results_dir(tmp_path / "b", 0.43125 * (1 + 2e-6), "bb")
    result = compare(left, right, TOL, DIGESTS)
    assert result.agree
    (line,) = result.lines()
    assert line == (
        f"{left} and {right} agree under the contract (rtol=1e-05, atol=1e-09, fit_atol=0.01): "
        "1 of 4 file(s) byte-identical; 1 tolerated: metrics.json (tolerance: 1 numbers within "
        "rtol/atol); digests that differ, not counted (they hash what is compared here, or "
        "learned weights): .reasonbench-outputs.json, predictions/m/seed0.meta.json:adapter_sha256"
    )


def test_directories_beyond_tolerance_name_every_difference(tmp_path: Path) -> None:
    left = results_dir(tmp_path / "a", 0.43125, "aa", extra="figures/old.png")
    right = results_dir(tmp_path / "b", 0.4313, "aa", extra="figures/new.png")
    result = compare(left, right, TOL, DIGESTS)
    assert not result.agree
    assert result.lines()[:-1] == [
        "differs (tolerance): metrics.json:methods.tfidf.seeds[0].accuracy: left=0.43125, "
        "right=0.4313",
        "only in left: figures/old.png",
        "only in right: figures/new.png",
    ]
    assert result.lines()[-1].startswith(
        f"{left} and {right} differ: 1 difference(s) beyond the contract (rtol=1e-05, "
        "atol=1e-09, fit_atol=0.01) in 1 file(s); 1 file(s) only in left; 1 file(s) only in "
        "right; 2 of 4 file(s) byte-identical"
    )
    # without the digest rules, the ledger's sha256 and the adapter's are differences too
    strict = compare(left, right, TOL, [])
    assert {f.where.split(":")[0] for f in strict.beyond} == {
        "metrics.json",
        ".reasonbench-outputs.json",
    }


def prediction_meta(root: Path, aten: str, base: str, confidence: float) -> Path:
    """A prediction run's records and meta as ``predict`` writes them (decoding.cpu_kernels, the
    base's cache path) under the portable kernels of a machine whose ATen build is ``aten``."""
    with OutputDir(root, "predict") as out:
        kernels = {"aten": aten, "cpu_kernels": "portable", "mkl": "compatible"}
        meta = {
            "adapter_sha256": "aa",
            "backbone": {"identity": "same", "name": "small_cpu", "path": base},
            "decoding": {"cpu_kernels": kernels, "threads": 1},
        }
        out.write_json("predictions/m/seed0.meta.json", meta)
        out.write_text("predictions/m/seed0.jsonl", json.dumps({"confidence": confidence}) + "\n")
    return root


AVX2_BASE, PLAIN_BASE = "data/cache/tiny/c7acfe2d791b3316", "data/cache/tiny/0123456789abcdef"


def test_the_machine_a_run_used_is_listed_not_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A CPU without AVX2 runs ATen's plain build by design: the meta records it and the base's
    # cache key names it, and the records fall to the tolerance class. Through the command, with
    # its default keys: the main job's compare on such a CPU passes, naming why.
    left = prediction_meta(tmp_path / "a", "AVX2", AVX2_BASE, 0.5)
    right = prediction_meta(tmp_path / "b", "DEFAULT", PLAIN_BASE, 0.5000012)
    code, out, _ = run([f"left={left}", f"right={right}"], capsys)
    assert code == 0, out
    assert out.strip().endswith(
        "1 tolerated: predictions/m/seed0.jsonl (tolerance; x86 class under other kernels: left "
        "portable: ATen AVX2, MKL compatible, right portable: ATen DEFAULT, MKL compatible: 1 "
        "numbers within rtol/atol); digests that differ, not counted (they hash what is compared "
        "here, or learned weights): .reasonbench-outputs.json; machine entries that differ, not "
        "counted (what each run's CPU used; its numbers are compared): "
        "predictions/m/seed0.meta.json:backbone.path, "
        "predictions/m/seed0.meta.json:decoding.cpu_kernels"
    )
    # beside a difference that counts, the machine entries are still listed: they explain it
    far = prediction_meta(tmp_path / "c", "DEFAULT", PLAIN_BASE, 0.51)
    code, out, _ = run([f"left={left}", f"right={far}"], capsys)
    assert code == 1
    assert (
        "differs (tolerance): predictions/m/seed0.jsonl:[0].confidence: left=0.5, right=0.51" in out
    )
    assert out.strip().endswith(
        "predictions/m/seed0.meta.json:backbone.path, "
        "predictions/m/seed0.meta.json:decoding.cpu_kernels"
    )
    # the other entries of the meta still count; and machine=[] counts the machine's too
    code, out, _ = run([f"left={left}", f"right={right}", "machine=[]"], capsys)
    assert code == 1
    assert "differs (tolerance): predictions/m/seed0.meta.json:backbone.path: left=" in out
    assert "predictions/m/seed0.meta.json:decoding.cpu_kernels.aten: left=" in out


def test_two_runs_on_the_portable_kernels_must_be_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Intel or AMD, both on the portable kernels: the x86 class promises bytes, so even a
    # difference far inside the tolerance counts, named with the class it broke
    left = prediction_meta(tmp_path / "a", "AVX2", AVX2_BASE, 0.5)
    right = prediction_meta(tmp_path / "b", "AVX2", AVX2_BASE, 0.5000012)
    code, out, _ = run([f"left={left}", f"right={right}"], capsys)
    assert code == 1
    assert out.splitlines()[0] == (
        "differs (bytes): predictions/m/seed0.jsonl:[0].confidence: left=0.5, right=0.5000012"
    )
    # the same values written with other bytes count too
    again = prediction_meta(tmp_path / "c", "AVX2", AVX2_BASE, 0.5)
    (again / "predictions/m/seed0.jsonl").write_text('{"confidence":0.5}\n')
    result = compare(left, again, TOL, DIGESTS)
    assert [f.line() for f in result.beyond] == [
        "differs: predictions/m/seed0.jsonl: left=other bytes, right=the same values"
    ]


def test_two_metrics_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text('{"ece": 0.0150001}')
    b.write_text('{"ece": 0.0150000}')
    result = compare(a, b, TOL)
    assert isinstance(result, Comparison) and result.agree and result.files[0].within == 1
    assert not compare(a, b, Tolerance(1e-7, 0.0)).agree


# ---- the command -----------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["compare", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_exit_status_and_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left = results_dir(tmp_path / "a", 0.43125, "aa")
    same = results_dir(tmp_path / "b", 0.43125, "aa")
    code, out, err = run([f"left={left}", f"right={same}"], capsys)
    assert (code, err) == (0, "")
    assert out == (
        f"{left} and {same} agree under the contract (rtol=1e-05, atol=1e-09, fit_atol=0.01): "
        "4 of 4 file(s) byte-identical\n"
    )
    other = results_dir(tmp_path / "c", 0.5, "aa")
    code, out, _ = run([f"left={left}", f"right={other}"], capsys)
    assert code == 1
    assert out.splitlines()[0] == (
        "differs (tolerance): metrics.json:methods.tfidf.seeds[0].accuracy: left=0.43125, right=0.5"
    )
    # a looser tolerance is a key like any other
    code, _, _ = run([f"left={left}", f"right={other}", "rtol=0.2"], capsys)
    assert code == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["left=<tmp>/none", "right=<tmp>/a"],
            "left=<tmp>/none does not exist, in the command line",
        ),
        (
            ["left=<tmp>/a", "right=<tmp>/a/metrics.json"],
            "left=<tmp>/a is a directory but right=<tmp>/a/metrics.json is a file (compare two "
            "metrics files or two results directories), in the command line",
        ),
        (
            ["left=<tmp>/a", "right=<tmp>/a", "rtol=-1"],
            "rtol must be a finite number >= 0, got -1, in the command line",
        ),
        (
            ["left=<tmp>/a", "right=<tmp>/a", "atol=nan"],
            "atol must be a finite number >= 0, got nan, in the command line",
        ),
        (["left=<tmp>/a", "right=<tmp>/a", "rtol=tight"], "rtol must be a number, got 'tight'"),
        (
            ["left=<tmp>/a", "right=<tmp>/a", "fit_atol=1.5"],
            "fit_atol must be a share in [0, 1), got 1.5, in the command line",
        ),
        (
            ["right=<tmp>/a"],
            "set left=... (a metrics file or a results directory), in the command line",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results_dir(tmp_path / "a", 0.5, "aa")
    code, out, err = run([a.replace("<tmp>", str(tmp_path)) for a in argv], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1
    assert lines[0].startswith("reasonbench compare: error: ")
    assert message.replace("<tmp>", str(tmp_path)) in lines[0]


def test_help_explains_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    for key in ("left", "right", "rtol", "atol", "fit_atol", "digests", "machine"):
        assert re.search(rf"^  {key} ", out, re.MULTILINE), key
    assert "max(rtol*max(|a|,|b|), atol)" in out


def test_nan_is_never_a_tolerance() -> None:
    with pytest.raises(CompareError, match="rtol must be a finite number >= 0"):
        Tolerance(math.nan, 0.0)
