"""``reasonbench receipt`` end to end: outputs, adaptive=true, the deprecated --flags, and every
class of bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reasonbench.cli.main import main

GOOD = {
    "sources": ["G", "N", "A"],
    "cells": {
        "": "deny",
        "G": "approve",
        "N": "approve",
        "A": "deny",
        "G+N": "approve",
        "G+A": "approve",
        "N+A": "approve",
        "G+N+A": "approve",
    },
}


def run_cli(
    args: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(stdin))
    code = main(["receipt", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_receipt_from_stdin(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli([], json.dumps(GOOD), capsys, monkeypatch)
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "stable": False,
        "old": "deny",
        "new": "approve",
        "receipt": [["G"], ["N"]],
        "min_size": 1,
        "ambiguous": True,
    }


def test_adaptive_reports_queries(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(["adaptive=true"], json.dumps(GOOD), capsys, monkeypatch)
    result = json.loads(out)
    assert code == 0 and result["receipt"] == [["G"], ["N"]]
    assert result["queries"] == 3  # G, N, A queried; every pair contains G or N and is skipped


def test_cube_file_and_any_k(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "cube.json"
    path.write_text(json.dumps({"sources": ["X"], "cells": {"": "a", "X": "b"}}))
    code, out, _ = run_cli([f"cube={path}"], "", capsys, monkeypatch)
    assert code == 0 and json.loads(out)["receipt"] == [["X"]]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps({"sources": [], "cells": {}}), "'sources' must be a non-empty list"),
        (json.dumps({"sources": ["G", "G"], "cells": {}}), "unique"),
        (json.dumps({**GOOD, "cells": {**GOOD["cells"], "G+X": "deny"}}), "unknown source 'X'"),
        (
            json.dumps({**GOOD, "cells": {k: v for k, v in GOOD["cells"].items() if k != "N+A"}}),
            "missing cell(s) 'N+A'",
        ),
        (json.dumps({**GOOD, "cells": {**GOOD["cells"], "A+G": "deny"}}), "given twice"),
        (json.dumps({**GOOD, "extra": 1}), "unexpected key"),
        (
            json.dumps({**GOOD, "cells": {**GOOD["cells"], "G": 3}}),
            "verdict must be a non-empty string",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(document: str, message: str, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli([], document, capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_missing_file_exits_2(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli([f"cube={tmp_path / 'absent.json'}"], "", capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err == (
        f"reasonbench receipt: error: cannot read '{tmp_path / 'absent.json'}' "
        "(No such file or directory), key cube\n"
    )


def test_deprecated_flags_still_work_with_one_notice(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch
) -> None:
    path = tmp_path / "cube.json"
    path.write_text(json.dumps(GOOD))
    new = run_cli([f"cube={path}", "adaptive=true"], "", capsys, monkeypatch)
    old = run_cli(["--cube", str(path), "--adaptive"], "", capsys, monkeypatch)
    assert old[:2] == new[:2] and new[2] == ""  # same exit code, same output
    assert old[2] == (
        "reasonbench receipt: warning: --cube, --adaptive are deprecated and will be removed in "
        f"the next release; write cube={path} adaptive=true\n"
    )
    assert run_cli([f"--cube={path}"], "", capsys, monkeypatch)[1] == new[1].replace(
        ', "queries": 3', ""
    )


def test_a_deprecated_flag_without_its_value_is_one_line(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(["--cube"], "", capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert (
        err
        == "reasonbench receipt: error: --cube needs a value (write cube=...), in the command line\n"
    )


def test_console_script_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "reasonbench.cli.main", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "receipt" in result.stdout and "grounds" in result.stdout


def test_docs_semantics_shows_the_real_cell_order_and_receipt(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """docs/semantics.md: the cell order of (G, N, A), and ``reasonbench receipt`` on its input."""
    from reasonbench.core.sources import GNA, cell_key, cell_order

    doc = (Path(__file__).resolve().parents[2] / "docs" / "semantics.md").read_text("utf-8")
    order = ", ".join(cell_key(m, GNA) or "∅" for m in cell_order(3))
    assert f"```\n{order}\n```" in doc
    blocks = re.findall(r"```json\n(.*?)```", doc[doc.index("## Receipt JSON") :], re.DOTALL)
    code, out, _ = run_cli([], blocks[0], capsys, monkeypatch)
    assert code == 0 and json.loads(out) == json.loads(blocks[1])
