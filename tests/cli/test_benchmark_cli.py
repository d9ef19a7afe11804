"""``reasonbench generate | audit | verify``: error paths give one clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.cli.main import main


def test_generate_rejects_impossible_quota(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "generate",
            "benchmark=small",
            "benchmark.quotas.ambiguous=100000",
            f"out_dir={tmp_path}/rb",
        ]
    )
    assert code == 2
    assert "impossible quota: quotas.ambiguous" in capsys.readouterr().err
    assert not (tmp_path / "rb").exists()


def test_generate_rejects_bad_split_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "generate",
            "benchmark=small",
            "benchmark.splits.dev.logical.cases=-3",
            f"out_dir={tmp_path}/rb",
        ]
    )
    assert code == 2
    assert "splits.dev.logical.cases" in capsys.readouterr().err


def test_audit_on_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", f"data_dir={tmp_path}/absent"]) == 2
    assert "MANIFEST.json is missing" in capsys.readouterr().err


def test_verify_names_missing_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_text('{"files": {"train.parquet": {"sha256": "00", "bytes": 1}}}')
    (tmp_path / "rb").mkdir()
    assert main(["verify", f"data_dir={tmp_path / 'rb'}", f"manifest={manifest}"]) == 1
    assert "missing: train.parquet" in capsys.readouterr().err
    # the deprecated flags of the previous release: the same check, and one notice
    assert main(["verify", "--data-dir", str(tmp_path / "rb"), "--manifest", str(manifest)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "reasonbench verify: warning: --data-dir, --manifest are deprecated and will be removed "
        f"in the next release; write data_dir={tmp_path / 'rb'} manifest={manifest}\n"
    )
    assert "missing: train.parquet" in err
