"""Batched greedy decoding equals one-at-a-time decoding and transformers' own greedy search."""

from __future__ import annotations

import random

import pytest
import torch
from transformers import GenerationConfig, Qwen3ForCausalLM

from reasonbench.infer.decode import greedy_decode, left_pad
from reasonbench.models import qwen3_config

PAD, EOS, NEW = 0, 1, 10


@pytest.fixture(scope="module")
def model() -> Qwen3ForCausalLM:
    torch.manual_seed(0)
    return Qwen3ForCausalLM(qwen3_config("tiny", 97, PAD, EOS)).eval()


def prompts(n: int = 6) -> list[list[int]]:
    rng = random.Random(0)
    return [[rng.randrange(2, 97) for _ in range(rng.randint(3, 25))] for _ in range(n)]


def test_left_padding_layout() -> None:
    ids, mask, positions = left_pad([[5, 6, 7], [8]], PAD)
    assert ids.tolist() == [[5, 6, 7], [PAD, PAD, 8]]
    assert mask.tolist() == [[1, 1, 1], [0, 0, 1]]
    assert positions[:, -1].tolist() == [2, 0]


def test_batched_equals_single_and_generate(model: Qwen3ForCausalLM) -> None:
    batch = greedy_decode(model, prompts(), PAD, EOS, NEW)
    for p, gen in zip(prompts(), batch, strict=True):
        (single,) = greedy_decode(model, [p], PAD, EOS, NEW)
        assert gen.token_ids == single.token_ids
        assert gen.logprobs == pytest.approx(single.logprobs, abs=1e-4)
        config = GenerationConfig(
            do_sample=False, max_new_tokens=NEW, pad_token_id=PAD, eos_token_id=EOS
        )
        reference = model.generate(torch.tensor([p]), generation_config=config)
        assert list(gen.token_ids) == reference[0, len(p) :].tolist()


def test_logprobs_are_the_teacher_forced_ones(model: Qwen3ForCausalLM) -> None:
    p = prompts()[2]
    (gen,) = greedy_decode(model, [p], PAD, EOS, NEW)
    full = torch.tensor([p + list(gen.token_ids)])
    with torch.no_grad():
        logp = torch.log_softmax(model(full).logits[0].float(), dim=-1)
    expected = [float(logp[len(p) - 1 + i, t]) for i, t in enumerate(gen.token_ids)]
    assert list(gen.logprobs) == pytest.approx(expected, abs=1e-4)
    assert gen.seq_logprob == pytest.approx(sum(expected), abs=1e-3)


def test_rows_stop_at_their_own_end_of_sequence(model: Qwen3ForCausalLM) -> None:
    ps = prompts()
    first = greedy_decode(model, ps, PAD, EOS, NEW)
    eos = first[0].token_ids[0]  # make row 0's first token the end-of-sequence token
    stopped = greedy_decode(model, ps, PAD, eos, NEW)
    assert stopped[0].finished and stopped[0].token_ids == () and len(stopped[0].logprobs) == 1
    for before, after in zip(first[1:], stopped[1:], strict=True):
        if eos not in before.token_ids:
            assert after.token_ids == before.token_ids and not after.finished
        else:  # cut at its own end-of-sequence, which counts in the sequence probability
            cut = before.token_ids.index(eos)
            assert after.token_ids == before.token_ids[:cut] and after.finished
            assert len(after.logprobs) == cut + 1
