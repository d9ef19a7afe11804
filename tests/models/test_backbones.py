"""Backbones load offline or fail with instructions; the tiny model builds deterministically."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reasonbench.models import BackboneNotFound, build_tiny, load_model, load_tokenizer
from reasonbench.models.architectures import ARCHITECTURES
from reasonbench.models.backbone import resolve_backbone
from reasonbench.models.tiny import TEXT_COLUMNS

TEXTS = [
    "Policy memo: hospitality. Cost per head: £415; attendees: 8 people.\nRULE\nApprove if ...",
    "Grounds G (facts):\nIvy is cold. Kate likes Harry.\nStatement: Ivy is red.",
]


def fake_benchmark(directory: Path) -> Path:
    directory.mkdir(parents=True)
    rows = [
        {column: f"{text} {column} {i}" for column in TEXT_COLUMNS}
        for i, text in enumerate(TEXTS * 20)
    ]
    pq.write_table(pa.Table.from_pylist(rows), directory / "train.parquet")
    return directory


def digests(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file()
    }


def test_tiny_build_is_cached_and_deterministic(tmp_path: Path) -> None:
    bench = fake_benchmark(tmp_path / "bench")
    first = build_tiny(bench, tmp_path / "cache-a", vocab_size=400)
    assert build_tiny(bench, tmp_path / "cache-a", vocab_size=400) == first  # cached
    second = build_tiny(bench, tmp_path / "cache-b", vocab_size=400)
    assert first.name == second.name and digests(first) == digests(second)
    assert not list((tmp_path / "cache-a").glob(".build-*"))  # no staging left behind
    other = build_tiny(bench, tmp_path / "cache-a", vocab_size=500)
    assert other != first


def test_a_named_architecture_is_keyed_by_its_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name and its fields spelt out build one model; a name whose fields are edited builds
    anew (a stale cache once served a 256-wide model under a name that had become 128-wide)."""
    bench = fake_benchmark(tmp_path / "bench")
    named = build_tiny(bench, tmp_path / "cache", vocab_size=400, arch="micro")
    assert (
        build_tiny(bench, tmp_path / "cache", vocab_size=400, arch=ARCHITECTURES["micro"]) == named
    )
    monkeypatch.setitem(ARCHITECTURES, "micro", {**ARCHITECTURES["micro"], "num_hidden_layers": 2})
    edited = build_tiny(bench, tmp_path / "cache", vocab_size=400, arch="micro")
    assert edited != named
    assert '"num_hidden_layers": 2' in (edited / "config.json").read_text()


def test_tiny_loads_like_a_real_backbone(tmp_path: Path) -> None:
    bench = fake_benchmark(tmp_path / "bench")
    cfg = {
        "name": "tiny",
        "source": "tiny",
        "cache_dir": str(tmp_path / "cache"),
        "vocab_size": 400,
    }
    backbone = resolve_backbone(cfg, bench)
    assert backbone.identity == resolve_backbone(cfg, bench).identity
    tokenizer = load_tokenizer(backbone)
    for text in TEXTS + ["unseen: ümlaut, 漢字, £5\n\tend"]:  # byte-level: any text round-trips
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        assert tokenizer.decode(ids) == text
    model = load_model(backbone)
    assert model.config.model_type == "qwen3" and model.config.num_hidden_layers == 2
    assert model.config.eos_token_id == tokenizer.eos_token_id


def test_absent_backbone_says_how_to_fetch_it(tmp_path: Path) -> None:
    cfg = {"name": "qwen3_1.7b", "source": "hf", "hf_id": "reasonbench-test/absent-model"}
    with pytest.raises(BackboneNotFound, match="hf download reasonbench-test/absent-model"):
        resolve_backbone(cfg)
    with pytest.raises(BackboneNotFound, match="no config.json"):
        resolve_backbone({**cfg, "path": str(tmp_path)})
    with pytest.raises(ValueError) as unknown:
        resolve_backbone({**cfg, "source": "tiyn"})
    assert str(unknown.value) == (
        "unknown model.source 'tiyn'; registered: hf, tiny; did you mean 'tiny'?"
    )


def test_backbone_resolves_from_a_hub_cache_offline(tmp_path: Path) -> None:
    """The layout `hf download` leaves behind, found with local_files_only (no network)."""
    tiny = build_tiny(fake_benchmark(tmp_path / "bench"), tmp_path / "tiny", vocab_size=400)
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--Qwen--Qwen3-1.7B"
    shutil.copytree(tiny, repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    cfg = {"name": "qwen3_1.7b", "source": "hf", "hf_id": "Qwen/Qwen3-1.7B"}
    backbone = resolve_backbone({**cfg, "hf_cache": str(tmp_path / "hub")})
    assert backbone.path == repo / "snapshots" / commit
    assert load_model(backbone).config.model_type == "qwen3"
    local = resolve_backbone({**cfg, "path": str(tiny)})  # or a plain model directory
    assert local.identity == backbone.identity
