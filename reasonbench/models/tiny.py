"""The tiny model for CPU and CI: a random-init Qwen3 and a byte-level BPE tokenizer trained
locally on the benchmark's own text.

Both are built once per benchmark and cached under ``cache_dir/<key>/`` where the key hashes the
training text, the vocabulary size, the architecture, the seed and, below AVX2, the CPU kernels the
random init runs on (ATen's capability, :mod:`reasonbench.models.kernels`: its plain build draws
other weights in the last bits), so the same inputs always give the same files (the BPE trainer
and CPU random init are deterministic). Building takes a few
seconds; a build goes to a temporary directory renamed into place, so concurrent processes (one
per ``accelerate`` rank) never see a half-written model.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen3ForCausalLM

from reasonbench.io import read_split
from reasonbench.models.architectures import arch_fields, qwen3_config

CACHE_DIR = "data/cache/tiny"  # where a tiny base is built unless model.cache_dir says otherwise
_SAME_INIT = ("AVX2", "AVX512")  # torch.backends.cpu.get_cpu_capability() values
BUILD_VERSION = "1"  # bump when the build recipe changes, so old caches are not reused
PAD_TOKEN = "<|endoftext|>"
EOS_TOKEN = "<|im_end|>"
TEXT_COLUMNS = (
    "prompt",
    "target_direct_verdict",
    "target_direct_receipt",
    "target_rationale_receipt",
    "target_cube",
)


def corpus(data_dir: Path) -> list[str]:
    """The tokenizer's training text: every prompt and target of the benchmark's train split."""
    rows = read_split(data_dir, "train", TEXT_COLUMNS)  # the tokenizer learns the train split
    return [row[column] for column in TEXT_COLUMNS for row in rows]


def train_tokenizer(
    texts: Iterable[str], vocab_size: int, split_digits: bool = False
) -> PreTrainedTokenizerFast:
    # byte-level: any text of any split (or a permuted prompt) encodes, never an unknown token
    tok = Tokenizer(models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
    if split_digits:
        # one token per digit: €62,500 against €50,000 is compared digit by digit, where merged
        # digit groups ("500", "62") would give every amount its own unrelated tokens
        digits = pre_tokenizers.Digits(individual_digits=True)
        tok.pre_tokenizer = pre_tokenizers.Sequence([digits, byte_level])
    else:
        tok.pre_tokenizer = byte_level
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[PAD_TOKEN, EOS_TOKEN],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer)
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=tok, pad_token=PAD_TOKEN, eos_token=EOS_TOKEN
    )


def build_key(texts: list[str], settings: Mapping[str, Any]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps({"version": BUILD_VERSION, **settings}, sort_keys=True).encode())
    for text in texts:
        digest.update(hashlib.sha256(text.encode()).digest())
    return digest.hexdigest()


def build_tiny(
    data_dir: Path,
    cache_dir: Path,
    vocab_size: int = 2048,
    arch: Mapping[str, Any] | str = "tiny",
    seed: int = 0,
    split_digits: bool = False,
) -> Path:
    """The cached model directory for ``data_dir`` (built first if absent): the tiny model, or
    any random-init Qwen3 architecture with the benchmark's own tokenizer (``model=small_cpu``)."""
    texts = corpus(data_dir)
    # keyed on the architecture's fields, not its name: a name whose fields change (an edited
    # architectures.py) must build anew, and a name and its fields spelt out are one model
    settings: dict[str, Any] = {"vocab_size": vocab_size, "arch": arch_fields(arch), "seed": seed}
    if split_digits:  # absent when off, so the tiny model's cache key is what it always was
        settings["split_digits"] = True
    # the random init under the kernels in effect (the commands apply cpu_kernels first): the
    # AVX2 and AVX-512 builds draw the same weights (measured), so their key is the one it always
    # was; ATen's plain build, or another processor's, draws others and keys them apart
    capability = torch.backends.cpu.get_cpu_capability()
    if capability not in _SAME_INIT:
        settings["cpu_kernels"] = capability
    key = build_key(texts, settings)
    target = cache_dir / key[:16]
    if (target / "BUILD.json").is_file():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_dir))
    try:
        tokenizer = train_tokenizer(texts, vocab_size, split_digits)
        config = qwen3_config(
            settings["arch"],
            vocab_size=len(tokenizer),
            pad_token_id=int(tokenizer.pad_token_id),
            eos_token_id=int(tokenizer.eos_token_id),
        )
        torch.manual_seed(seed)
        model = Qwen3ForCausalLM(config)
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        build = {"key": key, "texts": len(texts), **settings}
        (staging / "BUILD.json").write_text(json.dumps(build, indent=1, sort_keys=True) + "\n")
        try:
            staging.rename(target)
        except OSError:  # another process finished the same deterministic build first
            if not (target / "BUILD.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def tiny_source(model_cfg: Mapping[str, Any], data_dir: Path | None = None) -> Path:
    """The ``tiny`` backbone source (``reasonbench.models.backbone.BACKBONE_SOURCES``): the model
    :func:`build_tiny` builds from the benchmark at ``data_dir`` with ``model_cfg``'s fields."""
    if data_dir is None:
        raise ValueError("the tiny model is built from a benchmark: data_dir is required")
    arch = model_cfg.get("arch", "tiny")
    if isinstance(arch, Mapping):  # explicit fields (a DictConfig from the command line)
        arch = {str(key): value for key, value in arch.items()}
    return build_tiny(
        data_dir,
        Path(model_cfg.get("cache_dir") or CACHE_DIR),
        int(model_cfg.get("vocab_size", 2048)),
        arch,
        int(model_cfg.get("init_seed", 0)),
        bool(model_cfg.get("split_digits") or False),
    )
